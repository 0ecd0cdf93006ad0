// Small helpers for building the page: elements, times, and the language's date formats.
import { language, t } from "./texts.js";

/** `<tag attributes…>children</tag>`: `on…` attributes are listeners, `false`/`null` ones are left out. */
export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...present(children));
  return node;
}

/** `container`'s children replaced by `children` (nested lists flattened, nothing for null or false). */
export function fill(container, ...children) {
  container.replaceChildren(...present(children));
}

function present(children) {
  return children.flat(Infinity).filter((child) => child !== null && child !== undefined && child !== false);
}

/** "now", "5 min ago", "3 h ago", "2 d ago" for an instant in seconds since 1970. */
export function relative(seconds) {
  const minutes = Math.floor((Date.now() / 1000 - seconds) / 60);
  if (minutes < 1) return t("now");
  if (minutes < 60) return t("minutes", minutes);
  if (minutes < 60 * 24) return t("hours", Math.floor(minutes / 60));
  return t("days", Math.floor(minutes / (60 * 24)));
}

/** A `<time>` showing how long ago, kept current by `refreshTimes`. */
export function ago(seconds) {
  return element("time", { datetime: new Date(seconds * 1000).toISOString(), "data-seconds": seconds, title: dateTime(seconds) }, relative(seconds));
}

export function refreshTimes() {
  for (const node of document.querySelectorAll("time[data-seconds]")) node.textContent = relative(Number(node.dataset.seconds));
}

const locale = language === "ko" ? "ko-KR" : "en-GB";

/** "Mon 8 Dec, 08:30" / "12월 8일 (월) 08:30", in the browser's time zone (or `timeZone`). */
export function dateTime(seconds, timeZone) {
  return new Intl.DateTimeFormat(locale, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone })
    .format(new Date(seconds * 1000));
}

/** "08:30" (with seconds when they are not 0). */
export function clock(hour, minute, second) {
  const two = (n) => String(n ?? 0).padStart(2, "0");
  return `${two(hour)}:${two(minute)}${second ? `:${two(second)}` : ""}`;
}

/** The weekday's name for Apple's numbering (1 is Sunday). */
export function weekdayName(weekday) {
  // 2023-01-01 was a Sunday.
  return new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(new Date(Date.UTC(2023, 0, weekday)));
}

/** "5 March" / "3월 5일", and with a year "5 March 2027" / "2027년 3월 5일". */
export function dayOfYear(month, day, year) {
  const options = { month: "long", day: "numeric", timeZone: "UTC" };
  if (year) options.year = "numeric";
  return new Intl.DateTimeFormat(locale, options).format(new Date(Date.UTC(year ?? 2024, month - 1, day)));
}

export function monthName(month) {
  return new Intl.DateTimeFormat(locale, { month: "long", timeZone: "UTC" }).format(new Date(Date.UTC(2024, month - 1, 1)));
}
