import * as z from 'zod/mini';
import { idField } from './common';

export const hookRequest = z.strictObject({ product_id: idField });

/** What every engine's ideas must satisfy before a client sees them: any one fits `hook_text`. */
export const HOOK_IDEAS_PER_REQUEST = 10;
export const HOOK_TEXT_MAX = 100;
