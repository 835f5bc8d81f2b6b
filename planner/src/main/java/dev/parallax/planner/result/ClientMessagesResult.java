package dev.parallax.planner.result;

import dev.parallax.Notice;
import dev.parallax.Result;
import dev.parallax.engine.settings.Settings;

import java.util.List;

/**
 * A result whose messages are those the session's client_min_messages lets through; rows,
 * command tag and counts are the wrapped result's.
 */
public final class ClientMessagesResult extends ForwardingResult {
    private final List<Notice> messages;

    private ClientMessagesResult(Result result, List<Notice> messages) {
        super(result);
        this.messages = messages;
    }

    /**
     * {@code result} with the messages below the client_min_messages of {@code settings} dropped;
     * {@code result} itself when it raised none (most statements: the setting is not even read on
     * their path) or when all of them are sent.
     */
    public static Result filter(Result result, Settings settings) {
        List<Notice> messages = result.messages();
        if (messages.isEmpty()) {
            return result;
        }
        ClientMessageLevel level = ClientMessageLevel.of(settings.show(ClientMessageLevel.SETTING));
        List<Notice> sent = messages.stream().filter(level::sends).toList();
        return sent.size() == messages.size() ? result : new ClientMessagesResult(result, sent);
    }

    @Override
    public List<String> notices() {
        return messages.stream().map(Notice::message).toList();
    }

    @Override
    public List<Notice> messages() {
        return messages;
    }
}
