// The browser's own notifications, for a page left open in a background tab: asked for only when the
// user turns them on here, never by default. Chimed still presents every notification itself; this only
// echoes new ones while the page is out of sight.
import { pushGroup } from "./browser-push.js";
import { element } from "./dom.js";
import { t } from "./texts.js";

const key = "chime.browserNotifications";
const supported = typeof Notification !== "undefined";

function enabled() {
  return supported && Notification.permission === "granted" && localStorage.getItem(key) === "on";
}

/** A new notification arrived: shown by the browser too while the page is hidden and the user asked. */
export function announceToBrowser(event, appName) {
  if (!enabled() || document.visibilityState === "visible") return;
  const shown = new Notification(event.title || appName, {
    body: event.previewsHidden ? event.body : [event.subtitle, event.body].filter(Boolean).join("\n"),
    tag: `${event.app}/${event.identifier}`,
    icon: "/web/icon.svg",
  });
  shown.onclick = () => {
    window.focus();
    location.hash = "center";
    shown.close();
  };
}

export function browserSection() {
  const id = "browser-switch";
  const note = !supported ? t("browser.unsupported") : Notification.permission === "denied" ? t("browser.denied") : null;
  const input = element("input", {
    type: "checkbox", role: "switch", id, checked: enabled(), disabled: !supported || Notification.permission === "denied",
    onchange: async (event) => {
      if (!event.target.checked) return localStorage.setItem(key, "off");
      // The browser asks the user here, after their click, and only then.
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      localStorage.setItem(key, answer === "granted" ? "on" : "off");
      event.target.checked = answer === "granted";
    },
  });
  return element("section", { class: "settings-group", "aria-labelledby": "browser-title" },
    element("h3", { id: "browser-title" }, t("browser.title")),
    element("div", { class: "toggle" }, element("label", { for: id }, t("browser.switch")), input),
    note ? element("p", { class: "hint" }, note) : null,
    pushGroup());
}
