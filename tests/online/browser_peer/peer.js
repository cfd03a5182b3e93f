// Loads Pyodide, toybattle and the site's cryptography (crypto.js, over the noble modules in npm/) from this
// directory only, then runs play.py's main with the query's "args"; window.outcome resolves to its JSON answer
// (or {error}), then window.finished is set; window.roomCode is set when hosting.
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { loadCrypto } from "./crypto.js";  // copied from the site's static files by the test

async function main() {
  const here = new URL("./", location.href);
  const [py] = await Promise.all([
    loadPyodide({ indexURL: new URL("pyodide/", here).href }),
    loadCrypto(here),  // globalThis.toybattleCrypto, which the wormhole client's Browser() calls
  ]);
  const [zip, play] = await Promise.all([
    fetch("toybattle.zip").then((r) => r.arrayBuffer()),
    fetch("play.py").then((r) => r.text()),
  ]);
  py.unpackArchive(zip, "zip", { extractDir: "/lib/tb" });
  py.runPython("import sys; sys.path.insert(0, '/lib/tb')");
  py.runPython(play);
  return await py.globals.get("main")(new URLSearchParams(location.search).get("args"));
}

window.outcome = main().catch((e) => JSON.stringify({ error: String(e) })).finally(() => { window.finished = true; });
