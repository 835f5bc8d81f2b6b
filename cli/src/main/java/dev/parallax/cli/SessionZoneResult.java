package dev.parallax.cli;

import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.type.SessionTimeZone;
import dev.parallax.planner.result.ForwardingResult;

/**
 * A result that prints its timestamps with time zone in its session's TimeZone, read when the rows
 * are printed, as PostgreSQL's output function reads the setting when it sends them.
 */
final class SessionZoneResult extends ForwardingResult {
    private final SessionTimeZone zone;

    SessionZoneResult(Result result, Session session) {
        super(result);
        this.zone = SessionTimeZone.ofSetting(session.settings().show("TimeZone"));
    }

    @Override
    public SessionTimeZone timeZone() {
        return zone;
    }
}
