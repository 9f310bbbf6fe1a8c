// Every job type Wren runs, wired to the use case that does the work. Job handlers are thin:
// they decode the payload and call a service.

import type { ServiceContext } from "../services/context.ts";
import type { JobRunner } from "./runner.ts";

export function registerJobHandlers(_runner: JobRunner, _ctx: ServiceContext): void {}
