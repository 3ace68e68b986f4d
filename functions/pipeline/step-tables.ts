/**
 * The step handlers of each pipeline function, kept apart so the small bookkeeping function's bundle
 * never pulls in the media stack (ffmpeg, Skia, the engines).
 */
import type { PipelineStep, StepPayload } from './steps';

export type StepHandler = (payload: StepPayload, signal?: AbortSignal) => Promise<unknown>;
export type StepTable = Partial<Record<PipelineStep, StepHandler>>;
