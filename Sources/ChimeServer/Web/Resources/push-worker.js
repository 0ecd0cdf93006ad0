// The web center's service worker: shows the notifications chimed pushes to this browser (Web Push),
// even with no page of the center open, and closes those removed meanwhile. A page of the center in
// sight shows new notifications itself, so then a push is not shown twice.
// Registered by browser-push.js when the user turns pushes on, with the scope /web/.

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let message = null;
  try {
    message = event.data ? event.data.json() : null;
  } catch {
    message = null;  // not a message of chimed's: nothing to show
  }
  event.waitUntil(received(message));
});

const tagOf = (app, identifier) => `${app}/${identifier}`;

/** The center's pages open in this browser (the page is at "/", outside this worker's scope). */
async function centerPages() {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  return windows.filter((client) => new URL(client.url).pathname === "/");
}

async function received(message) {
  if (message?.type === "notification.removed" && Array.isArray(message.identifiers)) {
    const tags = new Set(message.identifiers.map((identifier) => tagOf(message.app, identifier)));
    for (const shown of await self.registration.getNotifications()) {
      if (tags.has(shown.tag)) shown.close();
    }
    return;
  }
  if (message?.type !== "notification.delivered") return;
  if ((await centerPages()).some((client) => client.visibilityState === "visible")) return;
  await self.registration.showNotification(message.title || message.app, {
    body: [message.subtitle, message.body].filter(Boolean).join("\n"),
    tag: tagOf(message.app, message.identifier),
    timestamp: typeof message.date === "number" ? message.date * 1000 : Date.now(),
    silent: message.alerting === "quietly",
    icon: "/web/icon.svg",
    data: { app: message.app, identifier: message.identifier },
  });
}

// A click opens the center where the notification is listed: a page already open is brought forward.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil((async () => {
    const [page] = await centerPages();
    if (page) return page.focus();
    return self.clients.openWindow("/#center");
  })());
});
