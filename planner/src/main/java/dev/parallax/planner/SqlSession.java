package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.settings.Settings;

/** A session: parses, plans (Calcite) and executes (engine) statements. Being built by the planner work. */
public final class SqlSession implements Session {
    private final Database database;
    private final Settings settings = new Settings();

    public SqlSession(Database database) {
        this.database = database;
    }

    @Override
    public Result execute(String sql) {
        throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "statement execution is not wired yet");
    }

    @Override
    public PreparedQuery prepare(String sql) {
        throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "prepared statements are not wired yet");
    }

    @Override
    public void cancel() {
    }

    @Override
    public Settings settings() {
        return settings;
    }

    @Override
    public Database database() {
        return database;
    }

    @Override
    public void close() {
    }
}
