package dev.parallax.cli;

import dev.parallax.Database;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.settings.Settings;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** A session that answers statements from a script of canned results and records what it ran. */
final class FakeSession implements Session {
    private final Map<String, Supplier<Result>> answers = new HashMap<>();
    final List<String> executed = new ArrayList<>();
    private final Settings settings = new Settings();

    FakeSession answer(String sql, Supplier<Result> result) {
        answers.put(sql, result);
        return this;
    }

    FakeSession fail(String sql, RuntimeException error) {
        answers.put(sql, () -> {
            throw error;
        });
        return this;
    }

    @Override
    public Result execute(String sql, dev.parallax.CopyChannel copy) {
        return execute(sql);
    }

    @Override
    public Result execute(String sql) {
        executed.add(sql);
        Supplier<Result> answer = answers.get(sql);
        if (answer == null) {
            throw new AssertionError("unexpected statement: " + sql);
        }
        return answer.get();
    }

    @Override
    public PreparedQuery prepare(String sql) {
        throw new UnsupportedOperationException("the CLI does not prepare statements");
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
        throw new UnsupportedOperationException("no database behind a fake session");
    }

    @Override
    public void close() {
    }
}
