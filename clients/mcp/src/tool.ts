/** What a tool is: its name, what it tells the model, its zod input schema, the API answer it hands back, and what it does with the typed client. */
import type * as z from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ReactionStudioClient, Job } from '@reaction-studio/client';
import type { ToolOutput } from './answers.js';

export interface ToolContext {
  /** Aborted when the client cancels the call or goes away: waits stop with it. */
  signal: AbortSignal;
  /** Reports where a job is; a no-op unless the call asked for progress (`_meta.progressToken`). */
  progress(job: Job): void;
  /** The longest a `wait` may last here (behind API Gateway, under its 30 s). */
  maxWaitMs: number;
  /** Between two polls of a wait. */
  intervalMs?: number;
}

export interface ToolDefinition<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** The answer `run` returns (its outputSchema); a wait answers the same record as it stands. */
  output: ToolOutput;
  annotations?: ToolAnnotations;
  run(rs: ReactionStudioClient, args: z.output<S>, context: ToolContext): Promise<unknown>;
}

/** Each entry keeps its own argument type; the table holds them side by side. */
export const tool = <S extends z.ZodObject>(definition: ToolDefinition<S>) => definition as unknown as ToolDefinition;

export const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
export const CREATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
