// The settings view, as iOS's Settings › Notifications: the focus switch and what breaks through it, this
// browser's own notifications, and per app its authorization (questions waiting for an answer first)
// and every setting the user controls.
import { browserSection } from "./browser-notifications.js";
import { appIcon } from "./center.js";
import { element, fill } from "./dom.js";
import { t } from "./texts.js";

const switches = [
  "alertSetting", "lockScreenSetting", "notificationCenterSetting", "soundSetting", "badgeSetting", "timeSensitiveSetting", "criticalAlertSetting",
];
const choices = {
  alertStyle: ["none", "banner", "alert"],
  showPreviewsSetting: ["always", "whenAuthenticated", "never"],
  groupingSetting: ["automatic", "byApp", "off"],
};
const choiceTexts = { alertStyle: "style", showPreviewsSetting: "previews", groupingSetting: "grouping" };

export function renderSettings(container, state, actions) {
  const apps = [...state.apps.values()].sort((a, b) => actions.appName(a.entry.identifier).localeCompare(actions.appName(b.entry.identifier)));
  // Redrawing must not take the keyboard away from the control the user is on.
  const focused = document.activeElement?.id;
  fill(container,
    element("h2", { class: "visually-hidden" }, t("settings.title")),
    focusSection(state, actions),
    browserSection(),
    element("section", { class: "settings-group", "aria-labelledby": "apps-title" },
      element("h3", { id: "apps-title" }, t("apps.title")),
      permissionQuestions(state, actions),
      apps.length ? null : element("p", { class: "empty" }, t("apps.empty")),
      apps.map((info) => appSettings(info, state, actions))));
  if (focused) document.getElementById(focused)?.focus();
}

/** The permission questions apps are waiting on, as iOS's alert: what the app asked for, Allow or not. */
export function permissionQuestions(state, actions) {
  const waiting = [...state.apps.values()].filter((info) => info.authorizationQuestion);
  if (!waiting.length) return null;
  return waiting.map((info) => {
    const app = info.entry.identifier;
    const id = `question-${domSafe(app)}`;
    return element("section", { class: "question", role: "alertdialog", "aria-labelledby": id, "data-app": app },
      element("h3", { id }, t("question", actions.appName(app))),
      element("p", {}, `${t("question.asks")} ${optionNames(info.authorizationQuestion.options)}`),
      element("div", { class: "actions" },
        element("button", { type: "button", "data-answer": "deny", onclick: () => actions.decide(app, false) }, t("deny")),
        element("button", { type: "button", class: "primary", "data-answer": "allow", onclick: () => actions.decide(app, true) }, t("allow"))));
  });
}

function focusSection(state, actions) {
  const focus = state.focus;
  const through = [...state.apps.values()].filter((info) => info.settings.timeSensitiveSetting === "enabled").map((info) => actions.appName(info.entry.identifier));
  return element("section", { class: "settings-group", "aria-labelledby": "focus-title" },
    element("h3", { id: "focus-title" }, t("focus.title")),
    toggle("focus-switch", t("focus.switch"), focus.on, false, (on) => actions.setFocus(on)),
    focus.desktopInhibited ? element("p", { class: "hint" }, t("focus.desktop")) : null,
    element("p", { class: "hint", id: "focus-through" }, through.length ? `${t("focus.through")} ${through.join(", ")}.` : t("focus.throughNone")));
}

function appSettings(info, state, actions) {
  const app = info.entry.identifier;
  const settings = info.settings;
  const status = settings.authorizationStatus;
  const id = domSafe(app);
  const change = (key, value) => actions.updateSetting(app, key, value);
  let authorization;
  if (status === "provisional") {
    authorization = element("div", { class: "actions" },
      element("button", { type: "button", "data-answer": "allow", onclick: () => actions.decide(app, true) }, t("keep")),
      element("button", { type: "button", class: "destructive", "data-answer": "deny", onclick: () => actions.decide(app, false) }, t("turnOff")));
  } else if (status === "notDetermined") {
    authorization = info.authorizationQuestion ? null : element("div", { class: "actions" },
      element("button", { type: "button", "data-answer": "deny", onclick: () => actions.decide(app, false) }, t("deny")),
      element("button", { type: "button", "data-answer": "allow", onclick: () => actions.decide(app, true) }, t("allow")));
  } else {
    authorization = toggle(`allow-${id}`, t("allowNotifications"), status !== "denied", false, (on) => actions.decide(app, on));
  }
  const allowed = status === "authorized" || status === "ephemeral" || status === "provisional";
  // Closed like an iOS settings list, one app opened at a time by the user; kept open across redraws.
  const details = element("details", { class: "app-settings", "data-app": app, open: state.openSettings.has(app),
    ontoggle: (event) => (event.target.open ? state.openSettings.add(app) : state.openSettings.delete(app)) },
    element("summary", { id: `app-${id}` },
      appIcon(app, info),
      element("span", { class: "name" }, actions.appName(app)),
      info.badge > 0 ? element("span", { class: "badge", "aria-label": t("badge", info.badge) }, String(info.badge)) : null,
      element("span", { class: "status", "data-status": status }, info.authorizationQuestion ? t("status.asking") : t(`status.${status}`))),
    authorization,
    allowed
      ? element("div", { class: "settings-list" },
        switches.map((key) => {
          // Critical alerts are the user's to grant even to an app that did not ask: on Linux there is no
          // entitlement to ask with. Anything else the app never asked for is not the user's to turn on.
          const unused = settings[key] === "notSupported" && key !== "criticalAlertSetting";
          return toggle(`${key}-${id}`, t(`setting.${key}`), settings[key] === "enabled", unused, (on) => change(key, on ? "enabled" : "disabled"));
        }),
        Object.entries(choices).map(([key, values]) => choice(`${key}-${id}`, t(`setting.${key}`), settings[key], values,
          (value) => t(`${choiceTexts[key]}.${value}`), (value) => change(key, value))))
      : null);
  return details;
}

/** A labelled on/off switch (a checkbox with the switch role: Space toggles it). */
function toggle(id, label, on, unused, changed) {
  const input = element("input", { type: "checkbox", role: "switch", id, checked: on && !unused, disabled: unused, "aria-describedby": unused ? `${id}-note` : null,
    onchange: (event) => changed(event.target.checked) });
  return element("div", { class: `toggle${unused ? " unused" : ""}` },
    element("label", { for: id }, label),
    unused ? element("span", { id: `${id}-note`, class: "hint" }, t("notUsed")) : null,
    input);
}

function choice(id, label, value, values, name, changed) {
  return element("div", { class: "toggle" },
    element("label", { for: id }, label),
    element("select", { id, onchange: (event) => changed(event.target.value) },
      values.map((option) => element("option", { value: option, selected: option === value }, name(option)))));
}

/** What an app asked for, in words (options chimed has no name for come as a number). */
function optionNames(options) {
  if (!Array.isArray(options)) return String(options);
  // In the order iOS's prompt and Settings name them.
  const order = ["alert", "sound", "badge", "timeSensitive", "criticalAlert", "provisional", "announcement", "carPlay", "providesAppNotificationSettings"];
  return [...options].sort((a, b) => order.indexOf(a) - order.indexOf(b)).map((option) => t(`option.${option}`)).join(", ");
}

function domSafe(text) {
  return text.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.codePointAt(0).toString(16)}_`);
}
