/**
 * Uploads as the API takes them: multipart/form-data, text fields beside one file part per name.
 * The API decides a file's type from its bytes, never its name or content type, but a part needs a
 * filename to be a file part at all, so every file gets one.
 */

/** Bytes to upload: a Blob or File (browsers, Node's `fs.openAsBlob`), a Buffer / Uint8Array, an ArrayBuffer, or any of them with a name. */
export type FileInput = Blob | ArrayBuffer | ArrayBufferView | NamedFileInput;

export interface NamedFileInput {
  data: Blob | ArrayBuffer | ArrayBufferView;
  filename?: string;
  /** Only informative: the API looks at the bytes. */
  type?: string;
}

/** A FormData from a flat object: Blobs (and FileInputs under `files`) become file parts, null and undefined are left out. */
export function formDataOf(fields: Record<string, unknown>, files: Record<string, { input: FileInput; defaultName: string }> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (value instanceof Blob) form.append(name, value, fileName(value, name));
    else form.append(name, String(value));
  }
  for (const [name, { input, defaultName }] of Object.entries(files)) {
    const part = filePart(input, defaultName);
    form.append(name, part.blob, part.filename);
  }
  return form;
}

export function filePart(input: FileInput, defaultName: string): { blob: Blob; filename: string } {
  if (isNamed(input)) {
    const blob = toBlob(input.data, input.type);
    return { blob, filename: input.filename ?? fileName(blob, defaultName) };
  }
  const blob = toBlob(input);
  return { blob, filename: fileName(blob, defaultName) };
}

function isNamed(input: FileInput): input is NamedFileInput {
  return typeof input === 'object' && input !== null && 'data' in input && !(input instanceof Blob) && !ArrayBuffer.isView(input);
}

function toBlob(data: Blob | ArrayBuffer | ArrayBufferView, type?: string): Blob {
  if (data instanceof Blob) return type && !data.type ? new Blob([data], { type }) : data;
  // A view is uploaded as the bytes it spans (a Buffer from a pool shares a larger ArrayBuffer).
  const bytes = ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
  return new Blob([bytes as Uint8Array<ArrayBuffer>], type ? { type } : {});
}

function fileName(blob: Blob, fallback: string): string {
  const name = (blob as Partial<File>).name;
  return typeof name === 'string' && name !== '' ? name : fallback;
}
