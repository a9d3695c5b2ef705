// Runs one script under MicroPython (the npm package @micropython/micropython-webassembly-pyscript)
// for controller/micropython/__init__.py. Host-only.
//
// Reads one JSON request on stdin:
//   {"module": "/abs/path/micropython.mjs", "files": {"controller/rules/game.py": "<base64>", ...},
//    "heapsize": 1048576 | null, "script": "print('hi')"}
// writes the files under /app in MicroPython's filesystem, sets sys.path to ['/app'] (no '.frozen':
// as lean as a Pico), runs the script as __main__ (top-level `await` allowed; a JS module `runner`
// offers `await runner.settle()`), and streams its stdout/stderr to ours. Run with --expose-gc.
// Exit status: 0; 1 with the traceback on stderr when the script raised; the code of SystemExit(n).

import { pathToFileURL } from "node:url";

const APP = "/app";

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

// MicroPython hands over one byte at a time (linebuffer: false keeps partial lines, such as a
// prompt without a newline). Bytes are gathered and written a line at a time; the streaming
// TextDecoder keeps a UTF-8 character split across writes whole.
function byteSink(stream) {
  const decoder = new TextDecoder("utf-8");
  let bytes = [];
  const flush = (final) => {
    if (bytes.length || final) {
      const text = decoder.decode(new Uint8Array(bytes), { stream: !final });
      bytes = [];
      if (text) stream.write(text);
    }
  };
  const write = (chunk) => {
    for (const byte of chunk) {
      bytes.push(byte);
      if (byte === 10 || bytes.length >= 65536) flush(false);
    }
  };
  return { write, flush };
}

function writeFiles(FS, files) {
  for (const [relative, base64] of Object.entries(files)) {
    const path = `${APP}/${relative}`;
    const parts = path.split("/").filter((part) => part);
    let folder = "";
    for (const part of parts.slice(0, -1)) {
      folder += "/" + part;
      if (!FS.analyzePath(folder).exists) FS.mkdir(folder);
    }
    FS.writeFile(path, Buffer.from(base64, "base64"));
  }
}

// Lean as a Pico: only /app, no frozen modules (asyncio, functools... are frozen in this build).
const PRELUDE = `import sys\nsys.path[:] = [${JSON.stringify(APP)}]\n`;

// The script runs as __main__ with runPythonAsync, so it may `await` at top level: handing control
// back to JS is the only moment this port really collects garbage (gc.collect() in running code
// only schedules it), which a heap measurement needs.
//
// The port reports an uncaught SystemExit as an error whose traceback ends in "SystemExit: TEXT";
// TEXT is read as CPython reads the code: none -> 0, a whole number -> that status, anything else
// is printed on stderr and gives 1.
function exitStatus(traceback) {
  // the exception's line is the first after "Traceback ..." that is not an indented frame
  const lines = traceback.replace(/\n$/, "").split("\n");
  let first = lines[0].startsWith("Traceback") ? 1 : 0;
  while (first < lines.length && lines[first].startsWith("  ")) first += 1;
  const text = lines.slice(first).join("\n").replace(/^SystemExit:? ?/, "");
  if (text === "" || text === "None") return 0;
  if (/^-?\d+$/.test(text)) return Number(text) & 0xff;
  process.stderr.write(text + "\n");
  return 1;
}

// `import runner; await runner.settle()` in a script: a moment at the top level, after node's own
// garbage collection (node runs with --expose-gc) and the finalizers it triggers have run. Every
// object MicroPython lent to JS (as the awaits do) is held until JS finalizes its proxy, so only
// then does gc.collect() + settle() leave exactly the live heap in gc.mem_alloc().
function settle() {
  if (globalThis.gc) globalThis.gc();
  return new Promise((resolve) => setTimeout(() => setImmediate(resolve), 0));
}

async function main() {
  const request = await readStdin();
  const { loadMicroPython } = await import(pathToFileURL(request.module).href);
  const out = byteSink(process.stdout);
  const err = byteSink(process.stderr);
  const options = { stdout: out.write, stderr: err.write, linebuffer: false };
  if (request.heapsize) options.heapsize = request.heapsize;
  const mp = await loadMicroPython(options);
  writeFiles(mp.FS, request.files || {});
  mp.registerJsModule("runner", { settle });
  mp.runPython(PRELUDE);
  let status = 0;
  try {
    await mp.runPythonAsync(request.script);
  } catch (error) {
    if (error.name !== "PythonError") throw error;
    out.flush(true);
    err.flush(true);
    if (error.type === "SystemExit") {
      status = exitStatus(error.message);
    } else {
      process.stderr.write(error.message);
      status = 1;
    }
  }
  out.flush(true);
  err.flush(true);
  process.exitCode = status;
}

main().catch((error) => {
  // Not a Python exception: the runner itself failed (bad request, wasm abort...). One short
  // message, not the minified package source that node would print with the stack.
  process.stderr.write(`micropython runner: ${error && error.message ? error.message : error}\n`);
  process.exitCode = 70;
});
