/** The motion reference as the form holds it, and what it becomes in a create or regenerate body. */
export interface Reference {
  source: 'link' | 'upload';
  url: string;
  /** Set once the chosen file is in storage. */
  uploadId: string | null;
  uploading: boolean;
}

export const EMPTY_REFERENCE: Reference = { source: 'upload', url: '', uploadId: null, uploading: false };

/** The fields a create or regenerate takes for this reference; undefined while it is incomplete. */
function referenceBody(reference: Reference) {
  if (reference.source === 'link') return reference.url.trim() ? { video_source: 'link' as const, reference_url: reference.url.trim() } : undefined;
  return reference.uploadId ? { video_source: 'upload' as const, reference_video_upload_id: reference.uploadId } : undefined;
}

/** The reference's fields, or what is still missing in words. */
export function referenceFields(reference: Reference) {
  if (reference.uploading) return 'Wait for the reference video to finish uploading.';
  return referenceBody(reference) ?? (reference.source === 'link' ? 'Paste the link to the reference video.' : 'Choose the reference video file.');
}
