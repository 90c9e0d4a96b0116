// trace_viewer.mjs -- load gcnsim --trace-json traces in a real trace processor: the trace
// engine of the Chrome DevTools Performance panel (npm package @paulirish/trace_engine).
// For each trace: the engine parses it without an exception; its Renderer model has the
// "instructions" thread with one entry per complete (X) event; and the engine's own
// async-pair matcher (Helpers.Trace.createMatchedSortedSyntheticEvents, keyed by
// cat:id:name) pairs every async begin with its end, each span lasting end.ts - begin.ts.
// Usage: node trace_viewer.mjs NODE_MODULES_DIR TRACE.json...   Exit 0 ok, 1 failure.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [dir, ...traces] = process.argv.slice(2);
const Trace = await import(pathToFileURL(
    path.join(dir, '@paulirish/trace_engine/models/trace/trace.js')).href);
// the engine expects a browser's DOMRect (its README says to polyfill it in Node)
globalThis.DOMRect ??= class { constructor(x = 0, y = 0, w = 0, h = 0) {
    this.x = x; this.y = y; this.width = w; this.height = h; } };
let fails = 0;
for (const f of traces) {
    const why = [];
    const events = JSON.parse(fs.readFileSync(f, 'utf8')).traceEvents;
    const nx = events.filter(e => e.ph === 'X').length;
    const begins = events.filter(e => e.ph === 'b');
    try {
        const model = Trace.TraceModel.Model.createWithAllHandlers();
        await model.parse(structuredClone(events));
        const data = model.parsedTrace().data;
        let entries = -1;
        for (const [, proc] of data.Renderer.processes)
            for (const [, th] of proc.threads)
                if (th.name === 'instructions') entries = th.entries.length;
        if (entries !== nx) why.push(`instructions thread has ${entries} entries, the trace ${nx} X events`);
        const asyncEv = structuredClone(events.filter(e => e.ph === 'b' || e.ph === 'e'));
        const spans = Trace.Helpers.Trace.createMatchedSortedSyntheticEvents(asyncEv);
        if (spans.length !== begins.length)
            why.push(`the engine paired ${spans.length} async spans of ${begins.length} begins`);
        for (const s of spans) {
            const b = s.args.data.beginEvent, e = s.args.data.endEvent;
            if (!e || b.cat !== e.cat || s.dur !== e.ts - b.ts || s.dur < 0)
                why.push(`span ${s.id}: begin/end do not agree`);
        }
        if (!why.length)
            console.log(`ok   ${f}: parsed; ${entries} instructions, ${spans.length} async spans paired`);
    } catch (x) {
        why.push(`the engine threw: ${x && x.stack ? x.stack.split('\n')[0] : x}`);
    }
    if (why.length) {
        fails++;
        console.log(`FAIL ${f}: ${why.slice(0, 5).join('; ')}`);
    }
}
process.exit(fails ? 1 : 0);
