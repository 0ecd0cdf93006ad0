// Pushes to this browser (Web Push): chimed sends each notification it shows as a banner to the
// browser's push service, and the service worker (push-worker.js) shows it even with the page closed.
// Turned on only by the user, here. A browser without a push service it can reach (a headless or
// de-Googled Chromium, one that is offline) cannot subscribe: the page says so instead of failing quietly.
import { api } from "./api.js";
import { element } from "./dom.js";
import { t } from "./texts.js";

const supported = typeof navigator.serviceWorker !== "undefined" && typeof PushManager !== "undefined" && typeof Notification !== "undefined";
const scope = "/web/";
/** How long a push service has to make a subscription; one usually takes a second or two. */
const subscribeTimeout = 10000;
const state = { on: false, busy: false, note: null, checked: false };

/**
 * Notifications removed in chimed (answered, dismissed on the desktop, removed by their app) leave this
 * browser too, as the page hears of it. chimed sends no push for a removal: a push that shows nothing
 * counts against the browser's budget of silent pushes, and spending it can end the subscription.
 */
export async function closeShownByBrowser(app, identifiers) {
  if (!supported || !Array.isArray(identifiers)) return;
  const registration = await navigator.serviceWorker.getRegistration(scope);
  if (!registration) return;
  const tags = new Set(identifiers.map((identifier) => `${app}/${identifier}`));
  for (const shown of await registration.getNotifications()) {
    if (tags.has(shown.tag)) shown.close();
  }
}

/** The switch with its note, as the settings view shows it; redrawn in place as the state changes. */
export function pushGroup() {
  if (!state.checked) {
    state.checked = true;
    check();
  }
  const id = "push-switch";
  const denied = supported && Notification.permission === "denied";
  const note = !supported ? t("push.unsupported") : denied ? t("browser.denied") : state.note;
  const input = element("input", {
    type: "checkbox", role: "switch", id, checked: state.on, disabled: !supported || denied || state.busy, "aria-describedby": "push-note",
    onchange: (event) => change(event.target.checked),
  });
  return element("div", { id: "push-group" },
    element("div", { class: "toggle" }, element("label", { for: id }, t("push.switch")), input),
    element("p", { class: "hint", id: "push-note", "aria-live": "polite" }, note ?? (state.on ? t("push.on") : "")));
}

function redraw() {
  const group = document.getElementById("push-group");
  if (!group) return;
  const focused = document.activeElement?.id === "push-switch";
  group.replaceWith(pushGroup());
  if (focused) document.getElementById("push-switch")?.focus();
}

async function change(on) {
  state.busy = true;
  state.note = null;
  redraw();
  try {
    if (on) await turnOn();
    else await turnOff();
  } catch (error) {
    state.note = t("push.failed", error.message);
  }
  state.busy = false;
  redraw();
}

/** Whether this browser is subscribed already (from an earlier visit), and with chimed's current key. */
async function check() {
  if (!supported) return;
  try {
    const subscription = await (await navigator.serviceWorker.getRegistration(scope))?.pushManager.getSubscription();
    if (!subscription) return;
    const { applicationServerKey } = await api("GET", "/v1/web/push");
    if (base64url(subscription.options.applicationServerKey) !== applicationServerKey) {
      // Made with a key chimed no longer has (its data folder was replaced): no push would arrive.
      await subscription.unsubscribe();
      return;
    }
    // Told again, in case chimed forgot it (a push service that ended it answers 410, and chimed drops it).
    await api("POST", "/v1/web/push/subscriptions", subscription.toJSON());
    state.on = true;
  } catch {
    state.on = false;
  } finally {
    redraw();
  }
}

async function turnOn() {
  // The browser asks the user here, after their click, and only then.
  const permission = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  if (permission !== "granted") {
    state.note = t("browser.denied");
    return;
  }
  const { applicationServerKey } = await api("GET", "/v1/web/push");
  const registration = await active(await navigator.serviceWorker.register("/web/push-worker.js", { scope }));
  let subscription;
  try {
    // A browser without a push service may never answer (headless Chromium does not): bounded, the
    // user hears why. Should it answer later, the next visit finds the subscription and tells chimed.
    subscription = await within(subscribeTimeout, registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey }));
  } catch (error) {
    console.warn("push subscription failed:", error.name, error.message);
    state.note = error.name === "NotAllowedError" ? t("browser.denied") : t("push.noService");
    return;
  }
  await api("POST", "/v1/web/push/subscriptions", subscription.toJSON());
  state.on = true;
}

async function turnOff() {
  const subscription = await (await navigator.serviceWorker.getRegistration(scope))?.pushManager.getSubscription();
  state.on = false;
  if (!subscription) return;
  const id = await subscriptionId(subscription.endpoint);
  await subscription.unsubscribe();
  await api("DELETE", `/v1/web/push/subscriptions/${id}`);
}

/** `promise`, or a rejection after `milliseconds`. */
function within(milliseconds, promise) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("no answer")), milliseconds);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The registration once its worker is active (a new one installs first), waiting at most ten seconds. */
function active(registration) {
  const worker = registration.installing || registration.waiting;
  if (registration.active && !worker) return registration;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(t("push.noWorker"))), 10000);
    worker.addEventListener("statechange", () => {
      if (worker.state !== "activated") return;
      clearTimeout(timer);
      resolve(registration);
    });
  });
}

/** chimed's name for a subscription: base64url of the first 16 bytes of its endpoint's SHA-256. */
async function subscriptionId(endpoint) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(endpoint));
  return base64url(digest.slice(0, 16));
}

function base64url(buffer) {
  if (!buffer) return "";
  return btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
