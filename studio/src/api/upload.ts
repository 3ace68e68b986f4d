/**
 * Direct uploads from the browser: POST /uploads declares the file, then XMLHttpRequest sends it to the
 * presigned form, because fetch cannot report upload progress. The answer's `id` then stands for the
 * file in one create (`demo_video_upload_id`, `image_upload_id`, `reference_video_upload_id`, `audio_upload_id`).
 */
import { createElement, useCallback, useRef, useState } from 'react';
import { Progress, Stack } from '@mantine/core';
import { StorageUploadError, type Upload, type UploadPurpose } from '#client/direct-uploads';
import { unwrap } from '#client/result';
import { api } from './client';

export type { Upload, UploadPurpose };

// Browsers leave `File.type` empty for some extensions (.mov on Linux, .mkv); the API needs a media type.
const TYPES_BY_EXTENSION: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/opus',
  flac: 'audio/flac',
};

function contentTypeOf(file: File): string {
  if (file.type) return file.type;
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  const type = TYPES_BY_EXTENSION[extension];
  if (!type) throw new Error(`The kind of file "${file.name}" could not be told; please choose a video (MP4, MOV, WebM), an image (PNG, JPEG, WebP) or a sound file (MP3, M4A, WAV, OGG, FLAC).`);
  return type;
}

/** Declares the upload, sends the file with progress (0..1) and answers the upload whose `id` a create names. */
async function uploadWithProgress(purpose: UploadPurpose, file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<Upload> {
  signal?.throwIfAborted();
  const body = { purpose, content_type: contentTypeOf(file), size_bytes: file.size, filename: file.name };
  const upload = (await unwrap(api.POST('/uploads', { body, signal }))).data;
  onProgress(0);
  await sendToStorage(upload, file, onProgress, signal);
  onProgress(1);
  return upload;
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
