package dev.flinks3.it.faults;

import static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder.responseDefinition;

import com.github.tomakehurst.wiremock.extension.requestfilter.RequestFilterAction;
import com.github.tomakehurst.wiremock.extension.requestfilter.RequestWrapper;
import com.github.tomakehurst.wiremock.extension.requestfilter.StubRequestFilterV2;
import com.github.tomakehurst.wiremock.http.Body;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.flinks3.testserver.RequestKind;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Records each request, removes the headers the proxy strips, and decides, once per request, which
 * fault (if any) it gets: answers in the server's place for faults
 * that keep the request from the server, flips a byte of a request body, and hands faults on the
 * server's answer to the {@link FaultTransformer} under the request's serve-event id.
 */
final class FaultFilter implements StubRequestFilterV2 {

    private final List<FaultRule> rules;
    private final FaultTransformer transformer;
    private final List<ProxiedRequest> recorded;
    private final List<String> strippedHeaderPrefixes;

    /**
     * @param recorded where every request is recorded as received
     * @param strippedHeaderPrefixes headers with these (lower-case) name prefixes are removed before forwarding
     */
    FaultFilter(
            List<FaultRule> rules,
            FaultTransformer transformer,
            List<ProxiedRequest> recorded,
            List<String> strippedHeaderPrefixes) {
        this.rules = rules;
        this.transformer = transformer;
        this.recorded = recorded;
        this.strippedHeaderPrefixes = strippedHeaderPrefixes;
    }

    @Override
    public RequestFilterAction filter(Request request, ServeEvent serveEvent) {
        RequestKind kind = RequestKind.of(
                request.getMethod().getName(), request.getUrl(), request.containsHeader("x-amz-copy-source"));
        Map<String, List<String>> headers = new HashMap<>();
        for (String name : request.getAllHeaderKeys()) {
            headers.put(
                    name.toLowerCase(Locale.ROOT),
                    List.copyOf(request.header(name).values()));
        }
        recorded.add(new ProxiedRequest(kind, request.getUrl(), headers));
        Request forwarded = withoutStrippedHeaders(request);
        for (FaultRule rule : rules) {
            if (rule.take(kind, headers.keySet())) {
                return apply(rule.fault(), forwarded, serveEvent);
            }
        }
        return RequestFilterAction.continueWith(forwarded);
    }

    private Request withoutStrippedHeaders(Request request) {
        RequestWrapper.Builder wrapper = RequestWrapper.create();
        boolean stripped = false;
        for (String name : request.getAllHeaderKeys()) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (strippedHeaderPrefixes.stream().anyMatch(lower::startsWith)) {
                wrapper.removeHeader(name);
                stripped = true;
            }
        }
        return stripped ? wrapper.wrap(request) : request;
    }

    private RequestFilterAction apply(Fault fault, Request request, ServeEvent serveEvent) {
        switch (fault.type()) {
            case ERROR_ANSWER:
                return RequestFilterAction.stopWith(responseDefinition()
                        .withStatus(fault.status())
                        .withHeader("Content-Type", "application/xml")
                        .withBody(fault.errorDocument())
                        .build());
            case RESET_BEFORE_RESPONSE:
                return RequestFilterAction.stopWith(responseDefinition()
                        .withFault(com.github.tomakehurst.wiremock.http.Fault.CONNECTION_RESET_BY_PEER)
                        .build());
            case CORRUPT_REQUEST_BODY:
                return RequestFilterAction.continueWith(RequestWrapper.create()
                        .transformBody(body -> new Body(Corruption.flipMiddleByte(body.asBytes())))
                        .wrap(request));
            default:
                transformer.expect(serveEvent.getId(), fault);
                return RequestFilterAction.continueWith(request);
        }
    }

    @Override
    public String getName() {
        return "flinks3-fault-filter";
    }
}
