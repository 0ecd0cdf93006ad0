// A request's trigger in words, in the page's language: "every Monday at 08:30, Asia/Seoul",
// "매일 07:00", "every 9 minutes". The dates it fires at come from chimed (`?upcoming=`): only chimed
// does time math.
import { clock, dayOfYear, monthName, weekdayName } from "./dom.js";
import { t } from "./texts.js";

export function describeTrigger(trigger) {
  if (!trigger) return t("now");
  switch (trigger.type) {
    case "timeInterval":
      return t(trigger.repeats ? "every.interval" : "once.interval", duration(trigger.timeInterval));
    case "calendar":
      return calendar(trigger.dateComponents ?? {}, trigger.repeats);
    case "location": {
      const region = trigger.region ?? {};
      const key = region.notifyOnEntry && region.notifyOnExit ? "location.both" : region.notifyOnExit ? "location.exit" : "location.entry";
      const where = `${Number(region.latitude).toFixed(4)}, ${Number(region.longitude).toFixed(4)}, ${Math.round(region.radius)} m`;
      return `${t(key)} (${where})${trigger.repeats ? "" : ` · ${t("once")}`}`;
    }
    case "push":
      return t("push");
    default:
      return trigger.type;
  }
}

/** Seconds as the largest whole unit: "9 minutes", "2 hours", "90 seconds". */
function duration(seconds) {
  for (const [unit, size] of [["days", 86400], ["hours", 3600], ["minutes", 60]]) {
    if (seconds >= size && seconds % size === 0) return t(`duration.${unit}`, seconds / size);
  }
  return t("duration.seconds", Math.round(seconds * 10) / 10);
}

/**
 * Apple's rule: only the components given are matched; below the largest one given the rest are at their
 * minimum (`hour: 8` is 08:00:00), above it they are free (`minute: 30` is every hour at :30).
 */
function calendar(c, repeats) {
  const mode = repeats ? "every" : "once";
  const time = c.hour !== undefined ? clock(c.hour, c.minute, c.second) : null;
  const zone = c.timeZone?.identifier ? t("pinned", c.timeZone.identifier) : "";
  const has = (name) => c[name] !== undefined && c[name] !== null;
  let text;
  if (has("year") && has("month") && has("day")) {
    // A date with its year happens once, repeating or not.
    text = t("every.date", dayOfYear(c.month, c.day, c.year), time ?? clock(0, 0, 0));
  } else if (!has("year") && has("month") && has("day") && !has("weekday")) {
    text = t(`${mode}.year`, dayOfYear(c.month, c.day), time ?? clock(0, 0, 0));
  } else if (!has("year") && !has("month") && has("day") && !has("weekday")) {
    text = t(`${mode}.month`, c.day, time ?? clock(0, 0, 0));
  } else if (!has("year") && !has("month") && !has("day") && has("weekday")) {
    text = t(`${mode}.week`, weekdayName(c.weekday), time ?? clock(0, 0, 0));
  } else if (!has("year") && !has("month") && !has("day") && !has("weekday") && time) {
    text = t(`${mode}.day`, time);
  } else if (!has("year") && !has("month") && !has("day") && !has("weekday") && has("minute")) {
    text = t(`${mode}.hour`, String(c.minute).padStart(2, "0") + (c.second ? `:${String(c.second).padStart(2, "0")}` : ""));
  } else if (!has("year") && !has("month") && !has("day") && !has("weekday") && has("second")) {
    text = t(`${mode}.minute`, c.second);
  } else {
    const parts = [];
    if (has("year")) parts.push(t("component.year", c.year));
    if (has("month")) parts.push(t("component.month", monthName(c.month)));
    if (has("day")) parts.push(t("component.day", c.day));
    if (has("weekday")) parts.push(t("component.weekday", weekdayName(c.weekday)));
    if (time) parts.push(time);
    else if (has("minute")) parts.push(`:${String(c.minute).padStart(2, "0")}`);
    text = t(`${mode}.other`, parts.join(", "));
  }
  return text + zone;
}
