// Games this browser holds tokens for: {id: {kind, tokens: {blue?, red?}, terrain, created, ...}}
export const saved = {
  all() { try { return JSON.parse(localStorage.getItem("tb.games") || "{}"); } catch { return {}; } },
  get(id) { return this.all()[id] || null; },
  put(id, entry) { const a = this.all(); a[id] = { ...(a[id] || {}), ...entry }; localStorage.setItem("tb.games", JSON.stringify(a)); },
  remove(id) { const a = this.all(); delete a[id]; localStorage.setItem("tb.games", JSON.stringify(a)); },
};
