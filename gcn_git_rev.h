#define GCN_GIT_REV "f368e9f-dirty"
