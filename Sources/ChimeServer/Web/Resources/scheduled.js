// The scheduled view: each app's pending requests in fire order, the trigger in words and the next fire
// dates chimed computed, with Remove.
import { appIcon } from "./center.js";
import { dateTime, element, fill } from "./dom.js";
import { t } from "./texts.js";
import { describeTrigger } from "./triggers.js";

/** A text of the content: a literal, or a localized one's key (resolved only when it is delivered). */
const text = (value) => (typeof value === "string" ? value : value?.key ?? "");

export function renderScheduled(container, state, actions) {
  const byApp = new Map();
  for (const item of state.pending.items) {
    if (!byApp.has(item.app)) byApp.set(item.app, []);
    byApp.get(item.app).push(item);
  }
  fill(container,
    element("h2", { class: "visually-hidden" }, t("scheduled.title")),
    byApp.size ? null : element("p", { class: "empty" }, t("scheduled.empty")),
    [...byApp.entries()].map(([app, items]) => {
      const name = actions.appName(app);
      return element("section", { class: "app", "aria-label": name, "data-app": app },
        element("header", {}, appIcon(app, state.apps.get(app)), element("h3", {}, name), element("span", { class: "count" }, t("pendingCount", items.length))),
        element("ul", { class: "pending", role: "list" }, items.map((item) => pendingItem(item, actions))));
    }));
}

function pendingItem(item, actions) {
  const content = item.request.content;
  const identifier = item.request.identifier;
  const heading = text(content.title) || text(content.body) || identifier;
  const dates = item.upcomingFireDates ?? (item.nextFireDate ? [item.nextFireDate] : []);
  return element("li", { class: "notification", "data-app": item.app, "data-id": identifier, "aria-label": heading },
    element("p", { class: "title" }, heading),
    text(content.title) && text(content.body) ? element("p", { class: "body" }, text(content.body)) : null,
    element("p", { class: "trigger" }, describeTrigger(item.request.trigger)),
    element("p", { class: "fire-dates" },
      dates.length
        ? [element("span", { class: "label" }, `${t("next")}: `),
          dates.map((date, index) => [index ? element("span", { class: "label" }, index === 1 ? ` · ${t("then")} ` : ", ") : null,
            element("time", { datetime: new Date(date * 1000).toISOString() }, dateTime(date))])]
        : t("never")),
    element("div", { class: "actions" },
      element("button", { type: "button", class: "destructive", "data-action": "remove", "aria-label": `${t("remove")}: ${heading}`,
        onclick: () => actions.removePending(item.app, identifier) }, t("remove"))));
}
