// The web center's service worker: shows the notifications chimed pushes to this browser (Web Push),
// even with no page of the center open. Every push shows one (the page subscribed with userVisibleOnly,
// and browsers count pushes that show nothing against a budget that can end the subscription); with a
// page of the center in sight, it replaces the page's own echo of it (the same tag) quietly. A push also
// closes the notifications chimed removed since the last one (`closes`).
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
  if (message?.type !== "notification.delivered") return;
  if (Array.isArray(message.closes)) {
    const tags = new Set(message.closes);
    for (const shown of await self.registration.getNotifications()) {
      if (tags.has(shown.tag)) shown.close();
    }
  }
  const inSight = (await centerPages()).some((client) => client.visibilityState === "visible");
  await self.registration.showNotification(message.title || message.app, {
    body: [message.subtitle, message.body].filter(Boolean).join("\n"),
    tag: tagOf(message.app, message.identifier),
    timestamp: typeof message.date === "number" ? message.date * 1000 : Date.now(),
    // The page in sight lists it and says so itself: no second sound.
    silent: inSight || message.alerting === "quietly",
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
