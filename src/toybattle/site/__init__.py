"""The static site: `toybattle site DIR` builds the app to run in a browser on Pyodide (docs/browser.md)."""
