// The web notification center: chimed's notifications as the user sees them (grouped as Apple groups
// them), what is scheduled, and each app's settings — read through the API with the session cookie,
// kept live by the event stream, changed through the API. No data lives in the page.
import { api, everyPage, follow, segment, Unauthenticated } from "./api.js";
import { showBadges } from "./badges.js";
import { announceToBrowser } from "./browser-notifications.js";
import { closeShownByBrowser } from "./browser-push.js";
import { renderCenter } from "./center.js";
import { refreshTimes } from "./dom.js";
import { renderScheduled } from "./scheduled.js";
import { renderSettings } from "./settings.js";
import { language, t } from "./texts.js";

const state = {
  center: { items: [], total: 0, sessionLocked: false },
  pending: { items: [], total: 0 },
  apps: new Map(),
  focus: { on: false },
  expanded: new Set(),
  openSettings: new Set(),
  view: "center",
};

/** Each app's last settings write, which the next one waits for. */
const writes = new Map();

/** What the views may ask for: each goes through the API, then the lists are read again. */
const actions = {
  async respond(app, identifier, body) {
    await attempt(() => api("POST", `/v1/apps/${segment(app)}/delivered/${segment(identifier)}/response`, body));
    later.center();
  },
  async clear(app, identifiers) {
    const body = identifiers ? { identifiers } : { all: true };
    await attempt(() => api("DELETE", `/v1/apps/${segment(app)}/delivered`, body));
    later.center();
  },
  async removePending(app, identifier) {
    await attempt(() => api("DELETE", `/v1/apps/${segment(app)}/pending/${segment(identifier)}`));
    later.pending();
  },
  async decide(app, allowed) {
    await attempt(() => api("PUT", `/v1/apps/${segment(app)}/authorization`, { allowed }));
    later.app(app);
  },
  /** One setting changed: read the app's settings as they are now, change that one, write them back —
   *  one change at a time per app, so quick clicks never write back a setting an earlier one changed. */
  async updateSetting(app, key, value) {
    const write = (writes.get(app) ?? Promise.resolve()).then(() => attempt(async () => {
      const current = await api("GET", `/v1/apps/${segment(app)}/settings`);
      await api("PUT", `/v1/apps/${segment(app)}/settings`, { ...current, [key]: value });
    }));
    writes.set(app, write);
    await write;
    later.app(app);
    later.center();
  },
  async setFocus(on) {
    await attempt(() => api("PUT", "/v1/focus", { on }));
    await loadFocus();
  },
  toggle(key) {
    if (state.expanded.has(key)) state.expanded.delete(key);
    else state.expanded.add(key);
    render();
  },
  appName: (app) => state.apps.get(app)?.entry?.displayName || app,
};

async function attempt(call) {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Unauthenticated) return showLogin();
    alert(`${t("failed")} ${error.message}`);
  }
}

// MARK: Loading

async function loadCenter() {
  const { items, total, first } = await everyPage("/v1/center");
  state.center = { items, total, sessionLocked: first.sessionLocked };
}

async function loadPending() {
  const { items, total } = await everyPage("/v1/pending", 5000, { upcoming: "3" });
  state.pending = { items, total };
}

async function loadApps() {
  const list = await api("GET", "/v1/apps");
  state.apps = new Map((list.apps ?? []).map((app) => [app.entry.identifier, app]));
}

async function loadApp(app) {
  try {
    state.apps.set(app, await api("GET", `/v1/apps/${segment(app)}`));
  } catch (error) {
    if (error instanceof Unauthenticated) throw error;
    state.apps.delete(app);
  }
}

async function loadFocus() {
  state.focus = await api("GET", "/v1/focus");
  render();
}

/** Reads again what changed, a little later, so that a burst of events costs one read. One read at a
 *  time: an older read that answers last would otherwise put back what a newer one had replaced. */
const later = (() => {
  const due = { center: false, pending: false, apps: new Set(), everything: false };
  let timer;
  let reading = false;
  let dueWhileReading = false;
  const schedule = () => {
    if (reading) {
      dueWhileReading = true;
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(run, 50);
  };
  async function run() {
    reading = true;
    try {
      await read();
    } finally {
      reading = false;
      if (dueWhileReading) {
        dueWhileReading = false;
        schedule();
      }
    }
  }
  async function read() {
    const now = { ...due, apps: [...due.apps] };
    Object.assign(due, { center: false, pending: false, apps: new Set(), everything: false });
    try {
      if (now.everything) await Promise.all([loadCenter(), loadPending(), loadApps(), loadFocus()]);
      else {
        await Promise.all([
          now.center ? loadCenter() : null,
          now.pending ? loadPending() : null,
          ...now.apps.map(loadApp),
        ]);
      }
      render();
    } catch (error) {
      if (error instanceof Unauthenticated) showLogin();
    }
  }
  return {
    center() { due.center = true; schedule(); },
    pending() { due.pending = true; schedule(); },
    app(app) { due.apps.add(app); schedule(); },
    everything() { due.everything = true; schedule(); },
  };
})();

// MARK: Showing

function render() {
  renderCenter(document.getElementById("center"), state, actions);
  renderScheduled(document.getElementById("scheduled"), state, actions);
  renderSettings(document.getElementById("settings"), state, actions);
  showBadges(state, actions);
  for (const view of ["center", "scheduled", "settings"]) {
    document.getElementById(view).hidden = state.view !== view;
    document.querySelector(`nav a[href='#${view}']`)?.toggleAttribute("aria-current", state.view === view);
    if (state.view === view) document.querySelector(`nav a[href='#${view}']`)?.setAttribute("aria-current", "page");
  }
}

/** The view the address names: `#center`, `#scheduled`, `#settings`, or `#reply/{app}/{id}/{action}`
 *  (the center, at that notification's reply box: where a desktop without inline reply sends the user). */
function route() {
  const parts = location.hash.slice(1).split("/").map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });
  state.view = ["scheduled", "settings"].includes(parts[0]) ? parts[0] : "center";
  render();
  if (parts[0] === "reply") focusReply(parts.slice(1));
}

function focusReply([app, identifier, action]) {
  const item = state.center.items.find((item) => item.app === app && item.identifier === identifier);
  if (!item) return;
  if (item.stack !== undefined) state.expanded.add(`${app}\u0000${item.stack}`);
  render();
  const input = [...document.querySelectorAll(".reply input")].find(
    (input) => input.dataset.app === app && input.dataset.id === identifier && (!action || input.dataset.action === action));
  input?.scrollIntoView({ block: "center" });
  input?.focus();
}

function showLogin() {
  document.getElementById("views").hidden = true;
  document.getElementById("navigation").hidden = true;
  document.getElementById("login").hidden = false;
  document.getElementById("login-failed").hidden = new URLSearchParams(location.search).get("login") !== "failed";
  document.getElementById("connection").textContent = "";
}

function announce(text) {
  const announcer = document.getElementById("announcer");
  announcer.textContent = "";
  setTimeout(() => { announcer.textContent = text; }, 20);
}

// MARK: Starting

function listen() {
  const status = document.getElementById("connection");
  follow({
    delivered(event) {
      later.center();
      later.pending();  // a request that fired once leaves the scheduled list
      if (event.listed || event.banner) {
        announce(t("newFrom", actions.appName(event.app), event.title || event.body));
        announceToBrowser(event, actions.appName(event.app));
      }
    },
    deliveredRemoved: (event) => {
      later.center();
      closeShownByBrowser(event.app, event.identifiers);
    },
    responded: () => later.center(),
    pendingChanged: () => later.pending(),
    appChanged: (event) => { later.app(event.app); later.center(); },
    focusChanged: (event) => { state.focus = event; later.center(); render(); },
    reset: () => later.everything(),
  }, (connection) => {
    status.textContent = t(connection);
  }, () => {
    // Closed for good: the session ended, or chimed went away. Ask whether we may still read.
    api("GET", "/v1/status").then(() => setTimeout(listen, 2000), (error) => {
      if (error instanceof Unauthenticated) showLogin();
      else setTimeout(listen, 2000);
    });
  });
}

async function start() {
  document.documentElement.lang = language;
  for (const node of document.querySelectorAll("[data-text]")) node.textContent = t(node.dataset.text);
  for (const node of document.querySelectorAll("[data-label]")) node.setAttribute("aria-label", t(node.dataset.label));
  try {
    await Promise.all([loadCenter(), loadPending(), loadApps(), loadFocus()]);
  } catch (error) {
    if (error instanceof Unauthenticated) return showLogin();
  }
  document.getElementById("views").hidden = false;
  document.getElementById("navigation").hidden = false;
  window.addEventListener("hashchange", route);
  route();
  listen();
  setInterval(refreshTimes, 30_000);
}

start();
