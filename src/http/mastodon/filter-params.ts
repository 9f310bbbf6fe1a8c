// Request fields shared by the v1 and v2 filter endpoints.

import { z } from "zod";
import { integerParam } from "../schemas.ts";

/** `expires_in` in seconds; empty or null means "never expires". */
export const expiresInParam = z
  .union([z.literal(""), z.null(), integerParam])
  .transform((value) => (value === "" ? null : value));
