// Shows what the server pushes to this browser (alerts, reminders) as notifications, and opens
// the page of what happened when one is tapped. The payload arrives decrypted by the browser.
"use strict";

self.addEventListener("push", function (event) {
  var data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || "Grognard", {
      body: data.body || "",
      tag: data.tag || undefined,
      icon: "/static/favicon.svg",
      data: { url: data.url || "/" },
    })
  );
});

// Only pages of this site are opened, whatever a payload says.
function sameSite(url) {
  try {
    var u = new URL(url, self.location.origin);
    return u.origin === self.location.origin ? u.href : self.location.origin + "/";
  } catch (e) {
    return self.location.origin + "/";
  }
}

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = sameSite(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (open) {
      for (var i = 0; i < open.length; i++) {
        if (open[i].url === url && "focus" in open[i]) return open[i].focus();
      }
      return self.clients.openWindow(url);
    })
  );
});
