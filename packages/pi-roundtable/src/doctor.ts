// The one place this package reaches the roundtable doctor. It lives in @orphus/roundtable-client today and is
// expected to move to a CLI package; when it does, only this import changes.
import { renderDoctorReport, runDoctor } from "@orphus/roundtable-client";

/** What the doctor examines for a session. */
export interface DoctorRequest {
  /** The role the session speaks (or would speak) as; undefined when it would fall back to `session-<pid>`. */
  readonly role?: string;
  readonly agentDir?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/** Runs `roundtable doctor` for the session's agent directory and role; returns its report as text. */
export async function doctorReport(request: DoctorRequest): Promise<string> {
  const { role, agentDir, env } = request;
  const report = await runDoctor({
    ...(role === undefined ? {} : { role }),
    ...(agentDir === undefined ? {} : { agentDir }),
    ...(env === undefined ? {} : { env }),
  });
  return renderDoctorReport(report).trimEnd();
}
