/** Names for the generated types that callers use most; everything else is in `components['schemas']`. */
import type { Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, paths };
export type Schemas = components['schemas'];
export type Job = Schemas['Job'];
export type JobStatus = Job['status'];
export type JobStage = Job['stage'];
export type Product = Schemas['Product'];
export type Avatar = Schemas['Avatar'];
export type MusicTrack = Schemas['MusicTrack'];
export type Video = Schemas['Video'];
export type Take = Schemas['Take'];
/** A dry run's answer (`?dry_run=true` on POST /videos and regenerate): what the request would take. */
export type VideoQuote = Schemas['VideoQuote'];
/** A batch of jobs (POST /videos/batch, GET /videos/batches/{id}): its jobs in variant order and how many stand at each status. */
export type VideoBatch = Schemas['VideoBatch'];
export type ErrorCode = Schemas['ErrorEnvelope']['code'];
/** GET /plans: every plan with its price and limits, and how paid plans are taken (`billing`). */
export type Plans = Schemas['Plans'];
export type Plan = Schemas['Plan'];
export type PlanName = Plan['name'];
/** PUT /account/plan's answer: the account as the change left it, what the change did, a Stripe Checkout link when paying comes first. */
export type PlanChange = Schemas['PlanChange'];
export type Account = Schemas['Account'];

/** The typed openapi-fetch client: GET, POST, PUT, PATCH, DELETE over the document's paths. */
export type TypedClient = Client<paths>;
