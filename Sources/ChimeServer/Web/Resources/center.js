// The notifications view: every app's delivered notifications as chimed presents them now, grouped as
// Apple groups them — by app, then by stack (the thread, or the app's one stack, by the user's grouping
// setting) collapsed under its summary — newest first, each with its buttons and reply boxes.
import { segment } from "./api.js";
import { ago, dateTime, element, fill } from "./dom.js";
import { permissionQuestions } from "./settings.js";
import { t } from "./texts.js";

export function renderCenter(container, state, actions) {
  const byApp = new Map();
  for (const item of state.center.items) {
    if (!byApp.has(item.app)) byApp.set(item.app, []);
    byApp.get(item.app).push(item);
  }
  const apps = [...byApp.entries()].map(([app, items]) => [app, items.sort((a, b) => b.date - a.date)]);
  apps.sort((a, b) => b[1][0].date - a[1][0].date);

  // What the user was typing, and where, survives the list being drawn again.
  const focused = document.activeElement?.id;
  const drafts = new Map([...container.querySelectorAll(".reply input")].map((input) => [input.id, input.value]));
  fill(container,
    element("h2", { class: "visually-hidden" }, t("center.title")),
    state.center.sessionLocked ? element("p", { class: "notice", role: "note" }, t("locked")) : null,
    state.focus.on || state.focus.desktopInhibited ? element("p", { class: "notice", role: "note" }, t("focusOn")) : null,
    permissionQuestions(state, actions),
    apps.length ? null : element("p", { class: "empty" }, t("center.empty")),
    apps.map(([app, items]) => appSection(app, items, state, actions)));
  for (const [id, value] of drafts) {
    const input = document.getElementById(id);
    if (input) input.value = value;
  }
  if (focused) document.getElementById(focused)?.focus();
}

/** The app's icon from the registry, else its initial. */
export function appIcon(app, info) {
  if (info?.entry?.iconPath) return element("img", { class: "app-icon", src: `/web/icons/${segment(app)}`, alt: "", width: 28, height: 28 });
  const name = info?.entry?.displayName || app;
  return element("span", { class: "app-icon letter", "aria-hidden": "true" }, [...name.replace(/^[a-z]+\.[a-z]+\./i, "")][0]?.toUpperCase() ?? "?");
}

function appSection(app, items, state, actions) {
  const info = state.apps.get(app);
  const name = actions.appName(app);
  const stacks = new Map();
  for (const item of items) {
    const key = item.stack === undefined ? `\u0001${item.identifier}` : item.stack;
    if (!stacks.has(key)) stacks.set(key, []);
    stacks.get(key).push(item);
  }
  const badge = info?.badge ?? 0;
  return element("section", { class: "app", "aria-label": name, "data-app": app },
    element("header", {},
      appIcon(app, info),
      element("h3", {}, name),
      badge > 0 ? element("span", { class: "badge", title: t("badge", badge), "aria-label": t("badge", badge) }, String(badge)) : null,
      element("span", { class: "count" }, t("count", items.length)),
      element("button", { type: "button", class: "quiet", "aria-label": `${t("clear")}: ${name}`, onclick: () => actions.clear(app) }, t("clear"))),
    [...stacks.entries()].map(([key, stack]) => stackList(app, key, stack, state, actions)));
}

/** One stack: its newest on top; collapsed under the summary until expanded. */
function stackList(app, key, items, state, actions) {
  const list = element("ul", { class: "thread", role: "list", "data-thread": key.startsWith("\u0001") ? null : key },
    items.map((item) => notification(item, state, actions)));
  if (items.length < 2) return list;
  const id = `${app}\u0000${key}`;
  const expanded = state.expanded.has(id);
  if (!expanded) list.classList.add("collapsed");
  if (items[0].othersSummary) list.firstElementChild.append(element("p", { class: "summary" }, items[0].othersSummary));
  return element("div", { class: "stack" },
    list,
    element("div", { class: "stack-controls" },
      element("button", { type: "button", class: "quiet stack-toggle", "aria-expanded": String(expanded), onclick: () => actions.toggle(id) },
        expanded ? t("showLess") : t("showMore", items.length - 1)),
      element("button", { type: "button", class: "quiet", onclick: () => actions.clear(app, items.map((item) => item.identifier)) }, t("clearThread"))));
}

function notification(item, state, actions) {
  const { app, identifier } = item;
  const level = item.interruptionLevel;
  const levelLabel = level === "critical" ? t("critical") : level === "timeSensitive" ? t("timeSensitive") : null;
  const late = item.isLate ? (item.scheduledDate ? t("lateFrom", dateTime(item.scheduledDate)) : t("late")) : null;
  const heading = item.title || item.body || actions.appName(app);
  const buttons = [];
  const replies = [];
  for (const action of item.actions) {
    const locked = action.authenticationRequired && state.center.sessionLocked;
    const hint = locked ? `${domID("lock", app, identifier, action.identifier)}` : null;
    if (action.textInput) {
      const inputID = domID("reply", app, identifier, action.identifier);
      const input = element("input", {
        type: "text", id: inputID, placeholder: action.textInput.placeholder || action.title, "data-app": app, "data-id": identifier,
        "data-action": action.identifier, disabled: locked, "aria-describedby": hint,
      });
      const send = () => actions.respond(app, identifier, { kind: "reply", action: action.identifier, text: input.value });
      input.addEventListener("keydown", (event) => { if (event.key === "Enter") send(); });
      replies.push(element("div", { class: "reply" },
        element("label", { for: inputID }, action.title || action.identifier), input,
        element("button", { type: "button", class: action.destructive ? "destructive" : null, disabled: locked, "aria-describedby": hint, onclick: send },
          action.textInput.buttonTitle || t("send")),
        locked ? element("span", { id: hint, class: "hint" }, t("needsUnlock")) : null));
    } else {
      buttons.push(element("button", {
        type: "button", class: action.destructive ? "destructive" : null, "data-action": action.identifier, disabled: locked,
        "aria-describedby": hint, title: locked ? t("needsUnlockLong") : null,
        onclick: () => actions.respond(app, identifier, { kind: "action", action: action.identifier }),
      }, action.title || action.identifier));
      if (locked) buttons.push(element("span", { id: hint, class: "hint" }, t("needsUnlock")));
    }
  }
  buttons.push(element("button", { type: "button", class: "quiet", "data-action": "open", "aria-label": `${t("open")}: ${heading}`,
    onclick: () => actions.respond(app, identifier, { kind: "open" }) }, t("open")));
  buttons.push(element("button", { type: "button", class: "quiet", "data-action": "dismiss", "aria-label": `${t("dismiss")}: ${heading}`,
    title: item.dismissReachesApp ? t("dismissTells") : null, onclick: () => actions.respond(app, identifier, { kind: "dismiss" }) }, t("dismiss")));

  return element("li", { class: `notification ${level}${item.previewsHidden ? " hidden-preview" : ""}`, "data-app": app, "data-id": identifier, "aria-label": heading },
    element("div", { class: "meta" },
      element("span", {}, levelLabel ? element("strong", { class: "level" }, levelLabel) : null, levelLabel && late ? " · " : null,
        late ? element("span", { class: "late" }, late) : null),
      ago(item.date)),
    item.title ? element("p", { class: "title" }, item.title) : null,
    item.subtitle ? element("p", { class: "subtitle" }, item.subtitle) : null,
    item.body ? element("p", { class: "body" }, item.body) : null,
    item.attachments.length ? element("div", { class: "attachments" }, item.attachments.map(attachment)) : null,
    element("div", { class: "actions" }, buttons),
    replies);
}

function attachment(file) {
  const label = `${t("attachment", file.kind)}: ${file.identifier}`;
  if (file.kind === "image") {
    return element("a", { href: file.url, target: "_blank", rel: "noopener" }, element("img", { src: file.url, alt: label, loading: "lazy" }));
  }
  if (file.kind === "audio") return element("audio", { controls: true, preload: "none", src: file.url, "aria-label": label });
  if (file.kind === "movie") return element("video", { controls: true, preload: "none", src: file.url, "aria-label": label });
  return element("a", { href: file.url, download: file.identifier }, label);
}

/** An element id for a notification's part: stable across redraws, safe in a selector. */
function domID(kind, ...parts) {
  return `${kind}-${parts.join("-")}`.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.codePointAt(0).toString(16)}_`);
}
