/**
 * Starting what the New video form asks for: one job (POST /videos), or a batch of variants (POST
 * /videos/batch), then its page. Each distinct request gets one Idempotency-Key, so sending the same
 * form again after a lost answer returns the same job or batch instead of paying twice.
 */
import { useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { unwrap } from '#client/result';
import { api } from '../../api/client';
import type { CreateBatchBody } from './batch-request';
import type { CreateVideoBody } from './video-request';

function useIdempotencyKey() {
  const last = useRef<{ body: string; key: string } | null>(null);
  return (body: unknown) => {
    const text = JSON.stringify(body);
    if (last.current?.body !== text) last.current = { body: text, key: crypto.randomUUID() };
    return last.current.key;
  };
}

/** After a start: the watch on jobs (JobWatcher) learns of the new ones, and the units left move. */
function useStarted(onStarted: () => void) {
  const queries = useQueryClient();
  const navigate = useNavigate();
  return (path: string) => {
    onStarted();
    void queries.invalidateQueries({ queryKey: ['jobs'] });
    void queries.invalidateQueries({ queryKey: ['usage'] });
    void navigate(path);
  };
}

// Only a dry run answers a quote; these calls never are one.
const QUOTE = 'The API answered a quote instead of starting; please try again.';

export function useStartVideo(onStarted: () => void) {
  const keyFor = useIdempotencyKey();
  const started = useStarted(onStarted);
  return useMutation({
    mutationFn: async (body: CreateVideoBody) => {
      const answer = (await unwrap(api.POST('/videos', { body, params: { header: { 'Idempotency-Key': keyFor(body) } } }))).data;
      if (!('id' in answer)) throw new Error(QUOTE);
      return answer;
    },
    onSuccess: (job) => started(`/jobs/${job.id}`),
  });
}

export function useStartBatch(onStarted: () => void) {
  const keyFor = useIdempotencyKey();
  const started = useStarted(onStarted);
  return useMutation({
    mutationFn: async (body: CreateBatchBody) => {
      const answer = (await unwrap(api.POST('/videos/batch', { body, params: { header: { 'Idempotency-Key': keyFor(body) } } }))).data;
      if (!('jobs' in answer)) throw new Error(QUOTE);
      return answer;
    },
    onSuccess: (batch) => started(`/batches/${batch.id}`),
  });
}
