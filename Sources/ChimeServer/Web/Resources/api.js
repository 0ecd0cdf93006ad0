// The page's only way to chimed: its HTTP API with the session cookie, every change carrying the
// session's CSRF token, and the event stream. Nothing here knows what the page shows.

export class Unauthenticated extends Error {}

function csrfToken() {
  const cookie = document.cookie.split(";").map((part) => part.trim()).find((part) => part.startsWith("chime_csrf="));
  return cookie ? cookie.slice("chime_csrf=".length) : "";
}

/** One API call; the answer's JSON, or an Error with chimed's own message. */
export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") headers["X-Chime-CSRF"] = csrfToken();
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin" });
  if (response.status === 401) throw new Unauthenticated();
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer?.error?.message ?? `HTTP ${response.status}`);
  return answer;
}

/** Every item of a paged list (at most `most`), a thousand at a time. */
export async function everyPage(path, most = 5000, extra = {}) {
  const items = [];
  let cursor;
  let first;
  do {
    const query = new URLSearchParams({ limit: "1000", ...extra });
    if (cursor) query.set("cursor", cursor);
    const page = await api("GET", `${path}?${query}`);
    first ??= page;
    items.push(...page.items);
    cursor = page.next;
  } while (cursor && items.length < most);
  return { items, total: first.total, first };
}

export const segment = (value) => encodeURIComponent(value);

/**
 * Follows `GET /v1/events`. EventSource reconnects by itself, sending the last id as Last-Event-ID, so
 * nothing is missed across a short outage; `reset` (the daemon restarted, or the page fell too far
 * behind) means reload everything. `onState` hears "live" and "reconnecting"; `onClosed` when the
 * stream is closed for good (the session ended).
 */
export function follow(handlers, onState, onClosed) {
  const events = new EventSource("/v1/events");
  events.onopen = () => onState("live");
  events.onerror = () => {
    onState("reconnecting");
    if (events.readyState === EventSource.CLOSED) onClosed();
  };
  for (const [kind, handler] of Object.entries(handlers)) {
    events.addEventListener(kind, (event) => handler(event.data ? JSON.parse(event.data) : {}));
  }
  return events;
}
