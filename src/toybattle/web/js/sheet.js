// Sheets: a dialog over the page (menus, the log, the handbook), and a confirmation.
import { t } from "./i18n.js";
import { $, h } from "./dom.js";

export function openSheet(title, body, { wide = false } = {}) {
  closeSheet();
  const sheet = h("div", { class: "sheet-back", id: "sheet", onclick: (e) => { if (e.target.id === "sheet") closeSheet(); } },
    h("div", { class: `sheet${wide ? " wide" : ""}`, role: "dialog", "aria-label": title },
      h("div", { class: "sheet-head" }, h("h2", {}, title), h("button", { class: "btn ghost close", "aria-label": t("sheet.close"), onclick: closeSheet }, "✕")),
      h("div", { class: "sheet-body" }, body)));
  document.body.appendChild(sheet);
  return sheet;
}

export function closeSheet() { const s = $("#sheet"); if (s) s.remove(); }

export function confirmBox(text, yes, onYes) {
  const body = h("div", {}, h("p", {}, text),
    h("div", { class: "row" }, h("button", { class: "btn danger", id: "confirm-yes", onclick: () => { closeSheet(); onYes(); } }, yes),
      h("button", { class: "btn", onclick: closeSheet }, t("sheet.cancel"))));
  openSheet(t("sheet.sure"), body);
}
