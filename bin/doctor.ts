/**
 * `npm run doctor [-- -c key=value ...]`: checks that this machine, account and region can take a
 * `cdk deploy` with that context (lib/admin/doctor.ts), and says what to fix or ask AWS for. Exits 1
 * when something would make the deploy fail.
 */
import { diagnose, report } from '#admin/doctor';
import { gatherFacts } from '#admin/doctor-facts';

gatherFacts(process.argv.slice(2))
  .then((facts) => {
    const findings = diagnose(facts);
    process.stdout.write(`${report(findings)}\n`);
    process.exitCode = findings.some((f) => f.level === 'fail') ? 1 : 0;
  })
  .catch((error: unknown) => {
    process.stderr.write(`doctor: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
