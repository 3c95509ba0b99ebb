package dev.flinks3.testserver;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * {@link EmbeddedS3Server#dropObjects} for a server running in another JVM (a benchmark's):
 * {@code DELETE /__flinks3/objects/<bucket>/<prefix>} answers 204 once the objects are gone, 404 for an
 * unknown bucket. The path cannot clash with S3: bucket names start with a letter or digit. These
 * requests are neither logged, delayed nor paced.
 */
final class ObjectDropEndpoint implements Filter {

    private static final String PATH = EmbeddedS3Server.DROP_OBJECTS_PATH;

    private final EmbeddedS3Server server;

    ObjectDropEndpoint(EmbeddedS3Server server) {
        this.server = server;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        if (!http.getRequestURI().startsWith(PATH)) {
            chain.doFilter(request, response);
            return;
        }
        HttpServletResponse out = (HttpServletResponse) response;
        if (!"DELETE".equals(http.getMethod())) {
            out.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            return;
        }
        String rest = URLDecoder.decode(http.getRequestURI().substring(PATH.length()), StandardCharsets.UTF_8);
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String prefix = slash < 0 ? "" : rest.substring(slash + 1);
        try {
            server.dropObjects(bucket, prefix);
        } catch (RuntimeException e) {
            out.sendError(HttpServletResponse.SC_NOT_FOUND, "no bucket " + bucket + ": " + e.getMessage());
            return;
        }
        out.setStatus(HttpServletResponse.SC_NO_CONTENT);
    }
}
