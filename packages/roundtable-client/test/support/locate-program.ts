// A program that locates the broker of /srv/agent with the default command and prints the outcome: bundled into a
// folder where no @orphus/roundtable-broker can be found, it shows what a client does without its broker package.
import { locateBroker } from "@orphus/roundtable-client";

try {
  const { spawn } = locateBroker({ agentDir: "/srv/agent", env: {} });
  process.stdout.write(`located: ${spawn?.command.args.join(" ")}\n`);
} catch (error) {
  process.stdout.write(`${(error as { code?: string }).code}: ${(error as Error).message}\n`);
}
