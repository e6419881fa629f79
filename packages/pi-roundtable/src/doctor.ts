// The one place this package reaches the roundtable doctor, which lives in @orphus/roundtable-cli beside the
// `roundtable doctor` command, so both report the same things in the same words.
import { renderDoctorReport, runDoctor } from "@orphus/roundtable-cli";

/** What the doctor examines for a session. */
export interface DoctorRequest {
  /** The role the session speaks as, when it was named by flag or session name (else the doctor reads the environment). */
  readonly role?: string;
  /** The `session-<pid>` name the session fell back to, having none: the doctor reports it as a problem. */
  readonly fallbackRole?: string;
  readonly agentDir?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/** Runs `roundtable doctor` for the session's agent directory and role; returns its report as text. */
export async function doctorReport(request: DoctorRequest): Promise<string> {
  const { role, fallbackRole, agentDir, env } = request;
  const report = await runDoctor({
    ...(role === undefined ? {} : { role }),
    ...(fallbackRole === undefined ? {} : { fallbackRole }),
    ...(agentDir === undefined ? {} : { agentDir }),
    ...(env === undefined ? {} : { env }),
  });
  return renderDoctorReport(report).trimEnd();
}
