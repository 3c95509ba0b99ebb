package dev.flinks3.it.security;

import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * Everything some loggers write at DEBUG, with stack traces, captured in memory through a Log4j 2
 * appender added for the duration; closing restores the configuration. Not for concurrent use by
 * two tests.
 */
public final class CapturedLogs implements AutoCloseable {

    private static final String APPENDER = "flinks3-captured-logs";

    private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
    private final List<String> loggerNames;
    private final List<Event> events = new ArrayList<>();
    private final Appender appender = new Appender();

    private CapturedLogs(List<String> loggerNames) {
        this.loggerNames = loggerNames;
        Configuration configuration = context.getConfiguration();
        appender.start();
        configuration.addAppender(appender);
        for (String name : loggerNames) {
            LoggerConfig logger = new LoggerConfig(name, Level.DEBUG, false);
            logger.addAppender(appender, Level.DEBUG, null);
            configuration.addLogger(name, logger);
        }
        context.updateLoggers();
    }

    /** Starts capturing DEBUG and above of the named loggers (and their children). */
    public static CapturedLogs capture(String... loggerNames) {
        return new CapturedLogs(List.of(loggerNames));
    }

    /** One logged event: its level, its logger's name, and its text with the stack trace. */
    public record Event(Level level, String logger, String text) {}

    /** The events logged so far. */
    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    private synchronized void add(Event event) {
        events.add(event);
    }

    @Override
    public void close() {
        Configuration configuration = context.getConfiguration();
        loggerNames.forEach(configuration::removeLogger);
        appender.stop();
        context.updateLoggers();
    }

    private final class Appender extends AbstractAppender {
        Appender() {
            super(
                    APPENDER,
                    null,
                    PatternLayout.newBuilder()
                            .withPattern("%level %logger - %msg%throwable")
                            .build(),
                    true,
                    Property.EMPTY_ARRAY);
        }

        @Override
        public void append(LogEvent event) {
            add(new Event(
                    event.getLevel(),
                    event.getLoggerName(),
                    getLayout().toSerializable(event).toString()));
        }
    }
}
