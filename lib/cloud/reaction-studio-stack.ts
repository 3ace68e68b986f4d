/** The whole service on AWS: data, media, the ffmpeg and native-modules layers, background workers and the HTTP API. */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { Api } from './api';
import { DataStore } from './data';
import { FfmpegLayer } from './ffmpeg-layer';
import { NativeModulesLayer } from './native-modules-layer';
import { engineConfigFromContext } from './engine-config';
import { PROJECT_ROOT } from './service-function';
import { MediaStore } from './media';
import { Workers } from './workers';

export class ReactionStudioStack extends Stack {
  readonly data: DataStore;
  readonly media: MediaStore;
  readonly workers: Workers;
  readonly api: Api;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.data = new DataStore(this, 'Data');
    this.media = new MediaStore(this, 'Media');
    const { layer: ffmpegLayer } = new FfmpegLayer(this, 'Ffmpeg');
    const { layer: nativeLayer } = new NativeModulesLayer(this, 'NativeModules', { projectRoot: PROJECT_ROOT });
    const engines = engineConfigFromContext(this);
    const shared = { table: this.data.table, bucket: this.media.bucket, ffmpegLayer, nativeLayer, engines };

    this.workers = new Workers(this, 'Workers', shared);
    this.api = new Api(this, 'Api', { ...shared, workers: this.workers.functions });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL of the API (prefix included)' });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.media.bucket.bucketName });
  }
}
