// The web notification center: chimed's delivered notifications, grouped as Apple groups them (by app,
// then by thread), kept live by the API's event stream, answered through the API. No data lives here:
// the page reads everything with its session cookie and sends every change with its CSRF token.

const texts = {
  en: {
    "title": "Notification Center",
    "login.title": "Open the notification center from a terminal",
    "login.body": "This page needs a one-time link. Run this in a terminal of the same user, then open the link it prints:",
    "login.failed": "That link was used already or has expired. Run the command again for a new one.",
    "center.title": "Notifications",
    "center.empty": "No notifications.",
    "live": "Live",
    "reconnecting": "Reconnecting…",
    "now": "now",
    "minutes": (n) => `${n} min ago`,
    "hours": (n) => `${n} h ago`,
    "days": (n) => `${n} d ago`,
    "late": "late",
    "critical": "Critical",
    "timeSensitive": "Time Sensitive",
    "open": "Open",
    "dismiss": "Dismiss",
    "send": "Send",
    "clear": "Clear",
    "more": (n) => (n === 1 ? "1 more notification" : `${n} more notifications`),
    "showMore": (n) => `Show ${n} more`,
    "showLess": "Show less",
    "count": (n) => (n === 1 ? "1 notification" : `${n} notifications`),
    "failed": "Chime could not do that:",
  },
  ko: {
    "title": "알림 센터",
    "login.title": "터미널에서 알림 센터를 여세요",
    "login.body": "이 페이지는 한 번 쓰는 링크가 필요합니다. 같은 사용자의 터미널에서 다음을 실행하고, 출력된 링크를 여세요:",
    "login.failed": "이미 사용했거나 만료된 링크입니다. 명령을 다시 실행해 새 링크를 받으세요.",
    "center.title": "알림",
    "center.empty": "알림이 없습니다.",
    "live": "실시간",
    "reconnecting": "다시 연결하는 중…",
    "now": "지금",
    "minutes": (n) => `${n}분 전`,
    "hours": (n) => `${n}시간 전`,
    "days": (n) => `${n}일 전`,
    "late": "늦게 도착",
    "critical": "중요",
    "timeSensitive": "시간 민감",
    "open": "열기",
    "dismiss": "닫기",
    "send": "보내기",
    "clear": "지우기",
    "more": (n) => `알림 ${n}개 더 있음`,
    "showMore": (n) => `${n}개 더 보기`,
    "showLess": "간단히 보기",
    "count": (n) => `알림 ${n}개`,
    "failed": "Chime이 이 작업을 하지 못했습니다:",
  },
};

/** The interface language: `?lang=ko|en` (remembered), else the browser's languages (Accept-Language). */
function chooseLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && texts[asked]) localStorage.setItem("chime.lang", asked);
  const chosen = localStorage.getItem("chime.lang");
  if (chosen && texts[chosen]) return chosen;
  for (const language of navigator.languages || [navigator.language]) {
    const base = String(language).toLowerCase().split("-")[0];
    if (texts[base]) return base;
  }
  return "en";
}

const language = chooseLanguage();
const t = (key, ...values) => {
  const text = texts[language][key] ?? texts.en[key] ?? key;
  return typeof text === "function" ? text(...values) : text;
};

const state = { delivered: [], categories: new Map(), names: new Map(), expanded: new Set() };

function csrfToken() {
  const cookie = document.cookie.split(";").map((part) => part.trim()).find((part) => part.startsWith("chime_csrf="));
  return cookie ? cookie.slice("chime_csrf=".length) : "";
}

class Unauthenticated extends Error {}

async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") headers["X-Chime-CSRF"] = csrfToken();
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin" });
  if (response.status === 401) throw new Unauthenticated();
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer?.error?.message ?? `HTTP ${response.status}`);
  return answer;
}

const segment = (value) => encodeURIComponent(value);
const text = (value) => (typeof value === "string" ? value : value?.key ?? "");

/** Every delivered notification, a page at a time (at most 5,000 shown). */
async function loadDelivered() {
  const items = [];
  let cursor;
  do {
    const query = new URLSearchParams({ limit: "1000" });
    if (cursor) query.set("cursor", cursor);
    const page = await api("GET", `/v1/delivered?${query}`);
    items.push(...page.items);
    cursor = page.next;
  } while (cursor && items.length < 5000);
  return items;
}

async function categoriesOf(app) {
  if (!state.categories.has(app)) {
    const list = await api("GET", `/v1/apps/${segment(app)}/categories`).catch(() => ({ categories: [] }));
    state.categories.set(app, new Map((list.categories ?? []).map((category) => [category.identifier, category])));
  }
  return state.categories.get(app);
}

async function loadNames() {
  const list = await api("GET", "/v1/apps").catch(() => ({ apps: [] }));
  for (const app of list.apps ?? []) state.names.set(app.entry.identifier, app.entry.displayName || app.entry.identifier);
}

function relative(seconds) {
  const minutes = Math.floor((Date.now() / 1000 - seconds) / 60);
  if (minutes < 1) return t("now");
  if (minutes < 60) return t("minutes", minutes);
  if (minutes < 60 * 24) return t("hours", Math.floor(minutes / 60));
  return t("days", Math.floor(minutes / (60 * 24)));
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

async function respond(app, identifier, action) {
  try {
    await api("POST", `/v1/apps/${segment(app)}/delivered/${segment(identifier)}/response`, action);
  } catch (error) {
    if (error instanceof Unauthenticated) return showLogin();
    alert(`${t("failed")} ${error.message}`);
  }
  scheduleRefresh();
}

function actionsFor(app, notification, categories) {
  const category = categories.get(notification.request.content.categoryIdentifier);
  return notification.actionsOverride ?? category?.actions ?? [];
}

function renderNotification(app, notification, categories) {
  const content = notification.request.content;
  const identifier = notification.request.identifier;
  const level = content.interruptionLevel;
  const title = text(content.title);
  const actions = actionsFor(app, notification, categories);
  const buttons = [];
  const replies = [];
  for (const action of actions) {
    const destructive = (action.options ?? []).includes("destructive");
    if (action.textInput) {
      const inputID = `reply-${app}-${identifier}-${action.identifier}`.replace(/[^A-Za-z0-9_-]/g, "_");
      const input = element("input", {
        type: "text", id: inputID, placeholder: text(action.textInput.placeholder) || text(action.title), "data-action": action.identifier,
      });
      const send = () => respond(app, identifier, { kind: "reply", action: action.identifier, text: input.value });
      input.addEventListener("keydown", (event) => { if (event.key === "Enter") send(); });
      replies.push(element("div", { class: "reply" }, element("label", { for: inputID }, text(action.title) || action.identifier), input,
        element("button", { type: "button", class: destructive ? "destructive" : null, onclick: send }, text(action.textInput.buttonTitle) || t("send"))));
    } else {
      buttons.push(element("button", {
        type: "button", class: destructive ? "destructive" : null, "data-action": action.identifier,
        onclick: () => respond(app, identifier, { kind: "action", action: action.identifier }),
      }, text(action.title) || action.identifier));
    }
  }
  buttons.push(element("button", { type: "button", class: "quiet", "data-action": "open", onclick: () => respond(app, identifier, { kind: "open" }) }, t("open")));
  buttons.push(element("button", { type: "button", class: "quiet", "data-action": "dismiss", "aria-label": `${t("dismiss")}: ${title}`, onclick: () => respond(app, identifier, { kind: "dismiss" }) }, t("dismiss")));
  const levelLabel = level === "critical" ? t("critical") : level === "time-sensitive" ? t("timeSensitive") : null;
  return element("li", {
    class: `notification ${level}`, "data-app": app, "data-id": identifier, "aria-label": title,
  },
    element("div", { class: "meta" },
      element("span", {}, levelLabel ? element("span", { class: "level" }, levelLabel) : null,
        levelLabel && notification.isLate ? " · " : null, notification.isLate ? element("span", { class: "late" }, t("late")) : null),
      element("time", { datetime: new Date(notification.date * 1000).toISOString(), "data-seconds": notification.date }, relative(notification.date))),
    title ? element("p", { class: "title" }, title) : null,
    text(content.subtitle) ? element("p", { class: "subtitle" }, text(content.subtitle)) : null,
    text(content.body) ? element("p", { class: "body" }, text(content.body)) : null,
    element("div", { class: "actions" }, buttons),
    replies);
}

/** One thread's stack: newest on top; collapsed under the category's summary until expanded. */
function renderThread(app, key, notifications, categories) {
  const top = notifications[0];
  const list = element("ul", { class: "thread", role: "list", "data-thread": key });
  for (const notification of notifications) list.append(renderNotification(app, notification, categories));
  if (notifications.length < 2) return list;
  const expanded = state.expanded.has(`${app}\u0000${key}`);
  if (!expanded) list.classList.add("collapsed");
  const category = categories.get(top.request.content.categoryIdentifier);
  const others = notifications.length - 1;
  const format = category?.categorySummaryFormat;
  const summary = format
    ? format.replaceAll("%u", String(others)).replaceAll("%@", top.request.content.summaryArgument || "")
    : t("more", others);
  const first = list.firstElementChild;
  first.append(element("p", { class: "summary" }, summary));
  const toggle = element("button", {
    type: "button", class: "quiet stack-toggle", "aria-expanded": String(expanded),
    onclick: () => {
      const id = `${app}\u0000${key}`;
      if (state.expanded.has(id)) state.expanded.delete(id); else state.expanded.add(id);
      render();
    },
  }, expanded ? t("showLess") : t("showMore", others));
  return element("div", {}, list, toggle);
}

async function render() {
  const byApp = new Map();
  for (const item of state.delivered) {
    if (!byApp.has(item.app)) byApp.set(item.app, []);
    byApp.get(item.app).push(item.notification);
  }
  const apps = [...byApp.entries()].map(([app, notifications]) => [app, notifications.sort((a, b) => b.date - a.date)]);
  apps.sort((a, b) => b[1][0].date - a[1][0].date);
  const container = document.getElementById("apps");
  const sections = [];
  for (const [app, notifications] of apps) {
    const categories = await categoriesOf(app);
    const threads = new Map();
    for (const notification of notifications) {
      // Without a thread identifier, an app's notifications stack together, as iOS groups them by app.
      const key = notification.request.content.threadIdentifier || "";
      if (!threads.has(key)) threads.set(key, []);
      threads.get(key).push(notification);
    }
    const name = state.names.get(app) ?? app;
    sections.push(element("section", { class: "app", "aria-label": name, "data-app": app },
      element("header", {},
        element("h3", {}, name),
        element("span", { class: "count" }, t("count", notifications.length)),
        element("button", { type: "button", class: "quiet", "aria-label": `${t("clear")}: ${name}`,
          onclick: () => api("DELETE", `/v1/apps/${segment(app)}/delivered`, { all: true }).catch(() => {}).then(scheduleRefresh) }, t("clear"))),
      [...threads.entries()].map(([key, stack]) => renderThread(app, key, stack, categories))));
  }
  // What the user was typing, and where, survives the page being redrawn by a notification arriving.
  const focused = document.activeElement?.id;
  const drafts = new Map([...container.querySelectorAll(".reply input")].map((input) => [input.id, input.value]));
  container.replaceChildren(...sections);
  for (const [id, value] of drafts) {
    const input = document.getElementById(id);
    if (input) input.value = value;
  }
  if (focused) document.getElementById(focused)?.focus();
  document.getElementById("empty").hidden = state.delivered.length > 0;
  document.title = state.delivered.length ? `(${state.delivered.length}) ${t("title")}` : t("title");
}

let refreshTimer;
function scheduleRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refresh, 50);
}

async function refresh() {
  try {
    state.delivered = await loadDelivered();
    await render();
  } catch (error) {
    if (error instanceof Unauthenticated) showLogin();
  }
}

function showLogin() {
  document.getElementById("center").hidden = true;
  document.getElementById("login").hidden = false;
  document.getElementById("login-failed").hidden = new URLSearchParams(location.search).get("login") !== "failed";
  document.getElementById("connection").textContent = "";
}

/** The API's event stream; EventSource reconnects by itself, sending the last id as Last-Event-ID. */
function follow() {
  const status = document.getElementById("connection");
  const events = new EventSource("/v1/events");
  events.onopen = () => { status.textContent = t("live"); };
  events.onerror = () => {
    status.textContent = t("reconnecting");
    if (events.readyState === EventSource.CLOSED) {
      // Closed for good (the session is gone, or chimed refused): ask whether we may still read.
      api("GET", "/v1/status").then(() => setTimeout(follow, 2000), (error) => { if (error instanceof Unauthenticated) showLogin(); });
    }
  };
  for (const kind of ["delivered", "deliveredRemoved", "responded", "reset"]) events.addEventListener(kind, scheduleRefresh);
  events.addEventListener("delivered", (event) => {
    const delivered = JSON.parse(event.data);
    state.categories.delete(delivered.app);  // its buttons may have changed with it
  });
}

async function start() {
  document.documentElement.lang = language;
  for (const node of document.querySelectorAll("[data-text]")) node.textContent = t(node.dataset.text);
  try {
    await api("GET", "/v1/status");
  } catch (error) {
    if (error instanceof Unauthenticated) return showLogin();
  }
  document.getElementById("center").hidden = false;
  await loadNames();
  await refresh();
  follow();
  setInterval(() => {
    for (const node of document.querySelectorAll("time[data-seconds]")) node.textContent = relative(Number(node.dataset.seconds));
  }, 30_000);
}

start();
