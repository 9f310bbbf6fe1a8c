// Mastodon declares its updates as Rails resources (`resources :lists, only: [:update]`), and
// Rails routes an update by PUT and by PATCH alike. Its documentation names one of the two
// (PUT for statuses and lists, PATCH for the notification policy) and clients send either:
// masto.js, under Elk and Phanpy, sends PUT /api/v2/notifications/policy. So every update
// route is registered for both: `app.on(UPDATE_METHODS, path, …)`.

export const UPDATE_METHODS = ["PUT", "PATCH"];
