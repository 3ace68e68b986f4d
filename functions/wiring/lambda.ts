/**
 * The Lambda runtime's wiring: the one place that decides which adapter serves each port on AWS. It is
 * built on a function's first invocation and reused while the execution environment lives.
 */
import type { Dependencies } from '#ports/dependencies';
import { stepFunctionsJobRunner } from '#adapters/stepfunctions/job-runner';
import { lambdaBackgroundTasks } from '#adapters/lambda/background-tasks';
import { S3BlobStore } from '#adapters/s3/blob-store';
import { s3 } from '#adapters/aws-clients';
import { config } from '#functions/config';

let built: Dependencies | undefined;

export function lambdaDependencies(): Dependencies {
  built ??= {
    jobRunner: stepFunctionsJobRunner(),
    tasks: lambdaBackgroundTasks(),
    blobs: new S3BlobStore(s3(), config.bucketName),
    now: () => new Date(),
  };
  return built;
}
