/**
 * upload_file, a tool only the stdio server has: the host's model names a file on the user's machine
 * and the server sends it through POST /uploads, answering the upload's id for create_product
 * (demo_video_upload_id), create_avatar (image_upload_id), create_video (reference_video_upload_id)
 * or add_music (audio_upload_id). Over HTTP the server runs elsewhere, and reading its own disk for a
 * caller would be a hole, so that server never registers it.
 */
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import * as z from 'zod';
import { fileFromPath } from '@reaction-studio/client/node';
import { CREATE, tool } from './tool.js';
import { answerData } from './answers.js';

/**
 * Media types of the files the API takes, by extension: a dozen fixed entries, so a table rather than
 * a MIME database (the API checks the bytes against it when the upload is used).
 */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.avi': 'video/x-msvideo',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.flac': 'audio/flac',
};

export const uploadFileTool = tool({
  name: 'upload_file',
  title: 'Upload a local file',
  description:
    'Sends a file from this computer to Reaction Studio and answers the upload; its `id` goes in create_product (demo_video_upload_id), create_avatar (image_upload_id), create_video (reference_video_upload_id) or add_music (audio_upload_id).',
  input: z.strictObject({
    path: z.string().min(1).max(4096).describe('The file\'s path on this computer, absolute or from the directory the MCP server was started in'),
    purpose: z.enum(['demo_video', 'avatar_image', 'reference_video', 'music']).describe('What the file is for: a product demo, an avatar portrait, a motion reference clip or a music track'),
    content_type: z.string().min(1).max(100).describe('The media type, when the extension does not say it (e.g. video/mp4)').optional(),
  }),
  output: answerData('POST /uploads 201'),
  annotations: CREATE,
  async run(rs, { path, purpose, content_type }) {
    const contentType = content_type ?? MEDIA_TYPES[extname(path).toLowerCase()];
    if (!contentType) throw new Error(`${path}: cannot tell the media type from its extension; give content_type`);
    // Asked first: openAsBlob's own failure does not say whether the file is missing or unreadable.
    const found = await stat(path).catch((error: NodeJS.ErrnoException) => {
      throw new Error(`${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
    });
    if (!found.isFile()) throw new Error(`${path}: not a file`);
    return rs.uploadFile(purpose, await fileFromPath(path), { contentType });
  },
});
