#define GCN_GIT_REV "054a902-dirty"
