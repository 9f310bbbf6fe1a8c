/**
 * The admin API's hashtags, trends review and metrics, from Mastodon's documentation
 * (entities/Admin_Tag.md, Admin_Measure.md, Admin_Dimension.md, Admin_Cohort.md; the trends
 * methods' Status and PreviewCard with `requires_review`, and the links' publishers).
 */
import {
  arrayOf,
  boolean,
  dateTime,
  extend,
  nullable,
  number,
  object,
  oneOf,
  string,
} from "../json-schema.ts";
import { PreviewCard } from "./preview-card.ts";
import { Status } from "./status.ts";
import { Tag } from "./tag.ts";

export const AdminTag = extend(
  Tag,
  { trendable: boolean, usable: boolean, requires_review: boolean },
  { listable: boolean },
  "A hashtag as the staff see it",
);

export const AdminTrendsStatus = extend(
  Status,
  { requires_review: boolean },
  {},
  "A trending status for review",
);

export const AdminTrendsLink = extend(
  PreviewCard,
  { id: string, requires_review: boolean },
  {},
  "A trending link for review",
);

export const AdminPublisher = object(
  {
    id: string,
    domain: string,
    trendable: boolean,
    reviewed_at: nullable(dateTime),
    requested_review_at: nullable(dateTime),
    requires_review: boolean,
  },
  {},
  "A publisher of trending links",
);

export const AdminMeasure = object(
  {
    key: string,
    unit: nullable(string),
    total: string,
    data: arrayOf(object({ date: dateTime, value: string })),
  },
  { human_value: string, previous_total: string },
  "A measure over a time period",
);

export const AdminDimension = object(
  {
    key: string,
    data: arrayOf(
      object(
        { key: string, human_key: string, value: string },
        { unit: string, human_value: string },
      ),
    ),
  },
  {},
  "A dimension of data over a time period",
);

export const AdminCohort = object(
  {
    period: dateTime,
    frequency: oneOf("day", "month"),
    data: arrayOf(object({ date: dateTime, rate: number, value: string })),
  },
  {},
  "A cohort of users who signed up in one period",
);
