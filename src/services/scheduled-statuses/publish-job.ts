// The job type that publishes a scheduled status, apart from the use cases so that scheduling
// and publishing can both name it without importing each other.

export const PUBLISH_SCHEDULED_JOB = "scheduled-status.publish";
