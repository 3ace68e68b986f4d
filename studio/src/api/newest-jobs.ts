/**
 * The newest jobs, one query for every part that watches them (the finished-job alerts, the first-run
 * checklist): under the jobs list's key, so a new job, an approval or a regeneration (which invalidate
 * it) refreshes them all.
 */
import { unwrap } from '#client/result';
import { api } from './client';

export const NEWEST_JOBS_KEY = ['jobs', 'watch'] as const;

export const fetchNewestJobs = async () => (await unwrap(api.GET('/videos/jobs', { params: { query: { limit: 20 } } }))).data;
