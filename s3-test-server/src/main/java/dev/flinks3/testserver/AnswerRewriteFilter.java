package dev.flinks3.testserver;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Makes the real server answer wrongly in the ways S3-compatible stores are reported to: it takes
 * S3Proxy's real answer to a chosen request and rewrites it (a listing with keys outside the prefix,
 * a truncated page without continuation token, per-key errors in a DeleteObjects 200, an {@code <Error>}
 * in a 200 CompleteMultipartUpload, 500 where the server meant NoSuchUpload), hides a request header
 * from S3Proxy (a server that ignores {@code If-None-Match}), or refuses requests a store refuses
 * (B2's {@code x-amz-checksum-*}, an Object Lock bucket's missing {@code Content-MD5}, R2's InvalidPart,
 * a KMS 403, an archived object's {@code InvalidObjectState}) without passing them on.
 *
 * <p>Rules are tried in the order they were added; the first whose kind and condition match takes the
 * request. A rule applies a given number of times or until {@link #clear()}. Hiding a signed header
 * breaks SigV4 signatures: use it on a server built with {@code authenticate(false)}. Thread-safe.
 */
public final class AnswerRewriteFilter implements Filter {

    /** Rewrites one served answer. */
    @FunctionalInterface
    public interface Rewrite {
        /**
         * @param request the request as S3Proxy saw it
         * @param served S3Proxy's answer
         * @return the answer the client gets
         */
        Answer apply(HttpServletRequest request, Answer served);
    }

    /**
     * An answer: HTTP status, body and headers to set. Headers S3Proxy set are kept unless set here.
     *
     * @param status the HTTP status
     * @param body the body's bytes
     * @param headers headers set on the answer (a {@code Date} of another clock, {@code x-amz-bucket-region})
     */
    public record Answer(int status, byte[] body, Map<String, String> headers) {

        public Answer {
            headers = Map.copyOf(headers);
        }

        /** An answer with no headers of its own. */
        public Answer(int status, byte[] body) {
            this(status, body, Map.of());
        }

        /** This answer with one more header set. */
        public Answer withHeader(String name, String value) {
            Map<String, String> more = new HashMap<>(headers);
            more.put(name, value);
            return new Answer(status, body, more);
        }

        /** The body as UTF-8 text (XML answers). */
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The same status with another body. */
        public Answer withText(String text) {
            return new Answer(status, text.getBytes(StandardCharsets.UTF_8), headers);
        }

        /** An S3 error document with this status and code. */
        public static Answer error(int status, String code, String message) {
            return new Answer(
                    status,
                    S3ErrorAnswer.document(code, message, "answer-rewrite").getBytes(StandardCharsets.UTF_8));
        }
    }

    /** One armed rule; {@link #applied()} counts the requests it took. */
    public static final class Rule {
        private final RequestKind kind;
        private final Predicate<HttpServletRequest> when;
        private final AtomicInteger remaining;
        private final AtomicInteger applied = new AtomicInteger();
        private final Rewrite rewrite;
        private final Answer refusal;
        private final String hiddenHeader;

        private Rule(
                RequestKind kind,
                Predicate<HttpServletRequest> when,
                int times,
                Rewrite rewrite,
                Answer refusal,
                String hiddenHeader) {
            this.kind = Objects.requireNonNull(kind, "kind");
            this.when = Objects.requireNonNull(when, "when");
            this.remaining = new AtomicInteger(times);
            this.rewrite = rewrite;
            this.refusal = refusal;
            this.hiddenHeader = hiddenHeader;
        }

        /** How many requests the rule took. */
        public int applied() {
            return applied.get();
        }

        private boolean take(RequestKind requestKind, HttpServletRequest request) {
            if (requestKind != kind || !when.test(request)) {
                return false;
            }
            if (remaining.getAndUpdate(n -> n == Integer.MAX_VALUE ? n : Math.max(0, n - 1)) <= 0) {
                return false;
            }
            applied.incrementAndGet();
            return true;
        }
    }

    /** Times for a rule that applies until {@link #clear()}. */
    public static final int ALWAYS = Integer.MAX_VALUE;

    private final List<Rule> rules = new CopyOnWriteArrayList<>();
    private volatile Duration clockSkew;

    /**
     * Rewrites the answers to requests of {@code kind} that match {@code when}, {@code times} times.
     *
     * @return the armed rule
     */
    public Rule rewrite(RequestKind kind, Predicate<HttpServletRequest> when, int times, Rewrite rewrite) {
        return add(new Rule(kind, when, times, Objects.requireNonNull(rewrite, "rewrite"), null, null));
    }

    /**
     * Answers requests of {@code kind} that match {@code when} with an S3 error, {@code times} times,
     * without passing them to S3Proxy (the request body is read first).
     *
     * @return the armed rule
     */
    public Rule refuse(
            RequestKind kind, Predicate<HttpServletRequest> when, int times, int status, String code, String message) {
        return add(new Rule(kind, when, times, null, Answer.error(status, code, message), null));
    }

    /**
     * Answers requests of {@code kind} that match {@code when} with {@code answer} (any status, e.g. a
     * 200 with an {@code <Error>} body), {@code times} times, without passing them to S3Proxy.
     *
     * @return the armed rule
     */
    public Rule answer(RequestKind kind, Predicate<HttpServletRequest> when, int times, Answer answer) {
        return add(new Rule(kind, when, times, null, Objects.requireNonNull(answer, "answer"), null));
    }

    /**
     * Passes requests of {@code kind} to S3Proxy without the header {@code name}, as a server that
     * ignores it would act.
     *
     * @return the armed rule
     */
    public Rule hideHeader(RequestKind kind, String name) {
        return add(new Rule(kind, request -> request.getHeader(name) != null, ALWAYS, null, null, name));
    }

    /**
     * Refuses every request of the upload and read kinds (CreateMultipartUpload, PutObject, UploadPart, GetObject)
     * that carries an {@code x-amz-checksum-*} header with 400 {@code InvalidArgument}, as Backblaze B2 does, until
     * {@link #clear()}.
     */
    public void refuseChecksumHeaders() {
        for (RequestKind kind : List.of(
                RequestKind.CREATE_MULTIPART_UPLOAD,
                RequestKind.PUT_OBJECT,
                RequestKind.UPLOAD_PART,
                RequestKind.GET_OBJECT)) {
            refuse(
                    kind,
                    request -> hasHeaderStartingWith(request, "x-amz-checksum"),
                    ALWAYS,
                    400,
                    "InvalidArgument",
                    "Unsupported header 'x-amz-checksum-*' received for this API call.");
        }
    }

    /**
     * Answers every request with a {@code Date} header {@code skew} away from the real time, as a server whose
     * clock is wrong tells it; {@code null} for the real time. {@link #clear()} resets it.
     */
    public void skewClock(Duration skew) {
        clockSkew = skew;
    }

    /** Removes every rule and the clock skew. */
    public void clear() {
        rules.clear();
        clockSkew = null;
    }

    private Rule add(Rule rule) {
        rules.add(rule);
        return rule;
    }

    /** True if the request has a header whose lower-case name starts with {@code prefix}. */
    public static boolean hasHeaderStartingWith(HttpServletRequest request, String prefix) {
        for (Enumeration<String> names = request.getHeaderNames(); names.hasMoreElements(); ) {
            if (names.nextElement().toLowerCase(Locale.ROOT).startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        Duration skew = clockSkew;
        if (skew != null) {
            response = new SkewedDate((HttpServletResponse) response, skew);
        }
        RequestRecord record = (RequestRecord) request.getAttribute(RequestLogFilter.RECORD_ATTRIBUTE);
        HttpServletRequest http = (HttpServletRequest) request;
        Rule rule = null;
        if (record != null) {
            for (Rule candidate : rules) {
                if (candidate.take(record.kind(), http)) {
                    rule = candidate;
                    break;
                }
            }
        }
        if (rule == null) {
            chain.doFilter(request, response);
            return;
        }
        HttpServletResponse httpResponse = (HttpServletResponse) response;
        if (rule.refusal != null) {
            request.getInputStream().transferTo(OutputStream.nullOutputStream());
            write(httpResponse, rule.refusal);
        } else if (rule.hiddenHeader != null) {
            chain.doFilter(new WithoutHeader(http, rule.hiddenHeader), response);
        } else {
            BufferedResponse buffered = new BufferedResponse(httpResponse);
            chain.doFilter(request, buffered);
            write(httpResponse, rule.rewrite.apply(http, buffered.answer()));
        }
    }

    private static void write(HttpServletResponse response, Answer answer) throws IOException {
        response.setStatus(answer.status());
        answer.headers().forEach(response::setHeader);
        response.setContentType("application/xml");
        response.setContentLengthLong(answer.body().length);
        response.getOutputStream().write(answer.body());
    }

    /** A response whose {@code Date} header is a wrong clock's: set once, later settings of it ignored. */
    private static final class SkewedDate extends HttpServletResponseWrapper {

        SkewedDate(HttpServletResponse response, Duration skew) {
            super(response);
            response.setHeader(
                    "Date",
                    DateTimeFormatter.RFC_1123_DATE_TIME.format(
                            ZonedDateTime.now(ZoneOffset.UTC).plus(skew)));
        }

        @Override
        public void setHeader(String name, String value) {
            if (!"Date".equalsIgnoreCase(name)) {
                super.setHeader(name, value);
            }
        }

        @Override
        public void addHeader(String name, String value) {
            if (!"Date".equalsIgnoreCase(name)) {
                super.addHeader(name, value);
            }
        }

        @Override
        public void setDateHeader(String name, long date) {
            if (!"Date".equalsIgnoreCase(name)) {
                super.setDateHeader(name, date);
            }
        }

        @Override
        public void addDateHeader(String name, long date) {
            if (!"Date".equalsIgnoreCase(name)) {
                super.addDateHeader(name, date);
            }
        }
    }

    /** The request without one header. */
    private static final class WithoutHeader extends HttpServletRequestWrapper {
        private final String hidden;

        WithoutHeader(HttpServletRequest request, String hidden) {
            super(request);
            this.hidden = hidden;
        }

        private boolean isHidden(String name) {
            return name.equalsIgnoreCase(hidden);
        }

        @Override
        public String getHeader(String name) {
            return isHidden(name) ? null : super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            return isHidden(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
        }

        @Override
        public Enumeration<String> getHeaderNames() {
            List<String> names = Collections.list(super.getHeaderNames());
            names.removeIf(this::isHidden);
            return Collections.enumeration(names);
        }
    }

    /** Holds S3Proxy's status and body until it is done. */
    private static final class BufferedResponse extends BufferedServletResponse {
        private int status = SC_OK;

        BufferedResponse(HttpServletResponse response) {
            super(response);
        }

        Answer answer() {
            return new Answer(status, bufferedBody());
        }

        @Override
        protected Charset writerCharset() {
            return StandardCharsets.UTF_8;
        }

        @Override
        public void setStatus(int sc) {
            status = sc;
        }

        @Override
        public void sendError(int sc) {
            status = sc;
        }

        @Override
        public void sendError(int sc, String msg) {
            status = sc;
        }

        @Override
        public int getStatus() {
            return status;
        }

        @Override
        public void resetBuffer() {
            body.reset();
        }

        @Override
        public void reset() {
            super.reset();
            body.reset();
            status = SC_OK;
        }
    }
}
