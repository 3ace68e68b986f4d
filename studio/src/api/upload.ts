/**
 * Direct uploads from the browser: POST /uploads declares the file, then XMLHttpRequest sends it to the
 * presigned form, because fetch cannot report upload progress. The answer's `id` then stands for the
 * file in one create (`demo_video_upload_id`, `image_upload_id`, `reference_video_upload_id`, `audio_upload_id`).
 */
import { createElement, useCallback, useRef, useState } from 'react';
import { Progress, Stack } from '@mantine/core';
import { StorageUploadError, type Upload, type UploadPurpose } from '#client/direct-uploads';
import { unwrap } from '#client/result';
import { declaredType, judgeFile } from '../intake/file-check';
import { FILE_RULES } from '../intake/limits';
import { api } from './client';
import { beginUpload } from './uploads-in-flight';

export type { Upload, UploadPurpose };

/** The media type the API is told: the browser's, or the one the file's ending stands for. */
function contentTypeOf(purpose: UploadPurpose, file: File): string {
  const rule = FILE_RULES[purpose];
  const type = declaredType(rule, file);
  if (!type) throw new Error(judgeFile(rule, file) ?? `“${file.name}” cannot be sent as a ${rule.what}.`);
  return type;
}

/** Declares the upload, sends the file with progress (0..1) and answers the upload whose `id` a create names. */
async function uploadWithProgress(purpose: UploadPurpose, file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<Upload> {
  signal?.throwIfAborted();
  const body = { purpose, content_type: contentTypeOf(purpose, file), size_bytes: file.size, filename: file.name };
  const done = beginUpload();
  try {
    const upload = (await unwrap(api.POST('/uploads', { body, signal }))).data;
    onProgress(0);
    await sendToStorage(upload, file, onProgress, signal);
    onProgress(1);
    return upload;
  } finally {
    done();
  }
}

function sendToStorage(upload: Upload, file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(upload.method, upload.url);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () => (request.status >= 200 && request.status < 300 ? resolve() : reject(new StorageUploadError(request.status, request.responseText)));
    // Status 0: the connection failed or storage refused the cross-origin request; the browser hides which.
    request.onerror = () => reject(new Error('The file could not be sent to storage. Check your connection and try again.'));
    request.onabort = () => reject(signal?.reason ?? new DOMException('The upload was cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    if (upload.method === 'PUT') {
      for (const [name, value] of Object.entries(upload.headers ?? {})) request.setRequestHeader(name, value);
      request.send(file);
      return;
    }
    // The form's fields first: storage reads the policy before the file, which must come last.
    const form = new FormData();
    for (const [name, value] of Object.entries(upload.fields ?? {})) form.append(name, value);
    form.append('file', file, file.name);
    request.send(form);
  });
}

/** One upload at a time with its progress for a form: `progress` is undefined until an upload starts. */
export function useUpload(purpose: UploadPurpose) {
  const [progress, setProgress] = useState<number>();
  const controller = useRef<AbortController | null>(null);
  const upload = useCallback(
    async (file: File) => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      setProgress(0);
      try {
        return await uploadWithProgress(purpose, file, setProgress, current.signal);
      } catch (error) {
        setProgress(undefined);
        throw error;
      }
    },
    [purpose],
  );
  const cancel = useCallback(() => {
    controller.current?.abort();
    setProgress(undefined);
  }, []);
  return { upload, progress, cancel, reset: () => setProgress(undefined) };
}

/** A labelled progress bar for an upload; renders nothing before the upload starts. */
export function UploadProgress({ value, label = 'Upload' }: { value: number | undefined; label?: string }) {
  if (value === undefined) return null;
  const percent = Math.round(value * 100);
  return createElement(
    Stack,
    { gap: 4 },
    createElement('span', { style: { fontSize: 'var(--mantine-font-size-sm)' } }, `${label}: ${percent}%`),
    createElement(Progress, { value: percent, 'aria-label': label, animated: percent < 100, striped: percent < 100 }),
  );
}
