// Generated from the server's OpenAPI document by `npm run generate:types`: do not edit by hand.
// Change a route's schema instead; test/http/api-types.test.ts fails while this file is stale.
export interface paths {
    "/api/ai-provider": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The AI provider of change assessment, or null while none is assigned (its key never answered) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            provider: components["schemas"]["AiProvider"] | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Assign the AI provider {kind, url?, model, key?}; the key is sealed; owners and admins, audited ai_provider.set */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        key?: string | null;
                        /**
                         * Kind
                         * @description openai: an OpenAI-compatible chat-completions endpoint; anthropic: the Anthropic Messages API
                         * @enum {unknown}
                         */
                        kind: "openai" | "anthropic";
                        /**
                         * Model
                         * @description The model’s name as the provider knows it
                         */
                        model: string;
                        url?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            provider: components["schemas"]["AiProvider"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        /** Remove the AI provider: reports say none is assigned (audited ai_provider.deleted) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ai-provider/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask the provider a small question now and answer {ok, model, durationMs, problem} in words (audited ai_provider.tested; not counted by the hourly cap) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            durationMs: number | null;
                            model: string | null;
                            ok: boolean;
                            problem: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-destinations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Relay destinations, each with its last delivery (secrets never answered) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            destinations: components["schemas"]["AlertDestination"][];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Add a relay destination: webhook {url} (its signing secret answered here once), email {to}, slack {url}, pagerduty {routingKey, eventsUrl?} */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        enabled?: boolean;
                        eventsUrl?: string | null;
                        /**
                         * Kind
                         * @enum {unknown}
                         */
                        kind: "webhook" | "email" | "slack" | "pagerduty";
                        /** Name */
                        name: string;
                        /**
                         * Routing key
                         * @description pagerduty: the Events API v2 integration key; kept sealed
                         */
                        routingKey?: string;
                        /**
                         * Recipients
                         * @description email: the addresses
                         */
                        to?: string[];
                        /**
                         * URL
                         * @description webhook, slack: where to post; kept sealed
                         */
                        url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            destination: components["schemas"]["AlertDestination"];
                            signingSecret: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-destinations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change a relay destination; a URL or routing key left out keeps the stored one */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        enabled?: boolean;
                        eventsUrl?: string | null;
                        /** Name */
                        name?: string;
                        /**
                         * Routing key
                         * @description pagerduty: the Events API v2 integration key; kept sealed
                         */
                        routingKey?: string;
                        /**
                         * Recipients
                         * @description email: the addresses
                         */
                        to?: string[];
                        /**
                         * URL
                         * @description webhook, slack: where to post; kept sealed
                         */
                        url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            destination: components["schemas"]["AlertDestination"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        /** Remove a relay destination (audited alert_destination.deleted) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-destinations/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a sample alert to the destination now and answer the result in words (PagerDuty: a trigger and its resolve) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            destination: components["schemas"]["AlertDestination"];
                            message: string;
                            ok: boolean;
                            status: number | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The hold mode and the label mapping (the defaults while none is saved) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            defaultLabelMapping: {
                                /** @enum {unknown} */
                                as: "service" | "source" | "pod" | "asset";
                                kinds?: string[];
                                labels: string[];
                            }[];
                            /**
                             * Hold mode
                             * @description relay: changeledger relays what it does not hold; silence: a silence on each Alertmanager
                             * @enum {unknown}
                             */
                            holdMode: "relay" | "silence";
                            labelMapping: {
                                /** @enum {unknown} */
                                as: "service" | "source" | "pod" | "asset";
                                kinds?: string[];
                                labels: string[];
                            }[];
                            labelMappingIsDefault: boolean;
                            updatedAt: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Set the hold mode and/or the label mapping (null: back to the defaults); owners and admins, audited settings.alerts_updated */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Hold mode
                         * @description relay: changeledger relays what it does not hold; silence: a silence on each Alertmanager
                         * @enum {unknown}
                         */
                        holdMode?: "relay" | "silence";
                        labelMapping?: unknown[] | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            defaultLabelMapping: {
                                /** @enum {unknown} */
                                as: "service" | "source" | "pod" | "asset";
                                kinds?: string[];
                                labels: string[];
                            }[];
                            /**
                             * Hold mode
                             * @description relay: changeledger relays what it does not hold; silence: a silence on each Alertmanager
                             * @enum {unknown}
                             */
                            holdMode: "relay" | "silence";
                            labelMapping: {
                                /** @enum {unknown} */
                                as: "service" | "source" | "pod" | "asset";
                                kinds?: string[];
                                labels: string[];
                            }[];
                            labelMappingIsDefault: boolean;
                            updatedAt: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-settings/receivers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The Alertmanager receivers: + route: snippet and the Prometheus alerting.alertmanagers snippet, pointing at the pipeline listener */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            alertmanagerChildRouteYaml: string;
                            alertmanagerYaml: string;
                            pipelineUrl: string | null;
                            prometheusYaml: string;
                            webhookUrl: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alertmanagers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organisation’s Alertmanagers (credentials never answered) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            alertmanagers: components["schemas"]["Alertmanager"][];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Add an Alertmanager {name, url, auth}; credentials are sealed (audited alertmanager.created) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Auth */
                        auth?: {
                            /** @enum {string} */
                            kind: "none";
                        } | {
                            /** @enum {string} */
                            kind: "bearer";
                            /**
                             * Token
                             * @description Left out on an update: the stored token is kept
                             */
                            token?: string;
                        } | {
                            /** @enum {string} */
                            kind: "basic";
                            /**
                             * Password
                             * @description Left out on an update: the stored password is kept
                             */
                            password?: string;
                            /** User name */
                            username: string;
                        };
                        /** Name */
                        name: string;
                        /**
                         * URL
                         * @description Alertmanager’s base URL (http://alertmanager:9093); private addresses are allowed
                         */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            alertmanager: components["schemas"]["Alertmanager"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alertmanagers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change an Alertmanager; auth left out (or a token or password left out) keeps the stored credentials */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Auth */
                        auth?: {
                            /** @enum {string} */
                            kind: "none";
                        } | {
                            /** @enum {string} */
                            kind: "bearer";
                            /**
                             * Token
                             * @description Left out on an update: the stored token is kept
                             */
                            token?: string;
                        } | {
                            /** @enum {string} */
                            kind: "basic";
                            /**
                             * Password
                             * @description Left out on an update: the stored password is kept
                             */
                            password?: string;
                            /** User name */
                            username: string;
                        };
                        /** Name */
                        name?: string;
                        /**
                         * URL
                         * @description Alertmanager’s base URL (http://alertmanager:9093); private addresses are allowed
                         */
                        url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            alertmanager: components["schemas"]["Alertmanager"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        /** Remove an Alertmanager (audited alertmanager.deleted) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alertmanagers/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask the Alertmanager for GET /api/v2/status and answer {ok, version, cluster, problem} in words */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            cluster: string | null;
                            ok: boolean;
                            problem: string | null;
                            version: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organisation's alerts, last seen first: filter by subject (name or key), state, change (its hold), held, since */
        get: {
            parameters: {
                query?: {
                    /** @description A CHG- id or a change id: the alerts its hold held */
                    change?: string;
                    /** @description true: held by a change now; false: not held */
                    held?: boolean;
                    limit?: number;
                    /** @description Seen since: a duration such as 1h, or an ISO-8601 time */
                    since?: string;
                    state?: "firing" | "resolved";
                    /** @description A subject's name or catalogue key */
                    subject?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            alerts: components["schemas"]["Alert"][];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/{fingerprint}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One alert and every firing → resolved transition of its fingerprint */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    fingerprint: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            alert: components["schemas"]["Alert"];
                            transitions: components["schemas"]["AlertTransition"][];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/alertmanager": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Alertmanager's webhook (payload version 4): record each alert, its subject and its transitions; a re-send adds nothing
         * @description Point a webhook_config at this URL with http_config.authorization (type Bearer, a token with alerts:write). Bodies up to 1 MiB.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description Alertmanager's webhook payload, version 4 */
            requestBody: {
                content: {
                    "application/json": {
                        /** Alerts */
                        alerts: ({
                            /** Annotations */
                            annotations?: {
                                [key: string]: string;
                            };
                            /**
                             * Ends at
                             * Format: date-time
                             */
                            endsAt?: string;
                            /**
                             * Fingerprint
                             * @description 16 hex digits; when sent, it must be the fingerprint of the labels
                             */
                            fingerprint?: string;
                            /** Generator URL */
                            generatorURL?: string;
                            /**
                             * Labels
                             * @description Label name → value
                             */
                            labels: {
                                [key: string]: string;
                            };
                            /**
                             * Starts at
                             * Format: date-time
                             */
                            startsAt: string;
                            /**
                             * Status
                             * @enum {unknown}
                             */
                            status: "firing" | "resolved";
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** Annotations */
                        commonAnnotations?: {
                            [key: string]: string;
                        };
                        /**
                         * Labels
                         * @description Label name → value
                         */
                        commonLabels?: {
                            [key: string]: string;
                        };
                        /** External URL */
                        externalURL?: string;
                        groupKey?: string;
                        /**
                         * Labels
                         * @description Label name → value
                         */
                        groupLabels?: {
                            [key: string]: string;
                        };
                        /** Receiver */
                        receiver?: string;
                        /**
                         * Status
                         * @enum {unknown}
                         */
                        status?: "firing" | "resolved";
                        truncatedAlerts?: number;
                        /**
                         * Version
                         * @description Alertmanager's webhook payload version: "4"
                         */
                        version: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Alerts whose subject is in a running change's scope */
                            held: number;
                            /** @description Alerts in the request (one per fingerprint) */
                            received: number;
                            /** @description Alerts that added nothing new (Alertmanager's repeat_interval) */
                            repeats: number;
                            /** @description New firing or resolved transitions recorded; 0 for a pure re-send */
                            transitions: number;
                            /** @description Alerts no rule of the label mapping names a catalogue entity for */
                            unmapped: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Audit events, newest first, with filters and cursor pagination */
        get: {
            parameters: {
                query?: {
                    /** @description Action prefix: token. matches token.created */
                    action?: string;
                    /** @description Actor id (usr_…, token id) */
                    actor?: string;
                    correlationId?: string;
                    cursor?: string;
                    limit?: number;
                    /** @description Free text over action, actor, target, correlation id and data */
                    q?: string;
                    /** @description A duration back from now (15m, 1h, 7d) or an ISO-8601 time */
                    since?: string;
                    targetId?: string;
                    targetType?: string;
                    /** @description A duration back from now (15m, 1h, 7d) or an ISO-8601 time */
                    until?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                /** @example token.created */
                                action: string;
                                actor: {
                                    /** @description Which automation acted */
                                    automation: string | null;
                                    id: string | null;
                                    /** @enum {unknown} */
                                    kind: "user" | "token" | "service" | "automation" | "system";
                                    name: string;
                                    /** @description What set the automation off */
                                    trigger: string | null;
                                };
                                correlationId: string | null;
                                data: {
                                    [key: string]: unknown;
                                };
                                hash: string;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                occurredAt: string;
                                prevHash: string;
                                requestId: string | null;
                                schemaVersion: number;
                                /** @description Gap-free per organisation */
                                seq: number;
                                /** @enum {unknown} */
                                source: "ui" | "api" | "cli" | "webhook" | "scheduler" | "system";
                                target: {
                                    id: string;
                                    type: string;
                                };
                            }[];
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/checkpoint-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The public key that signs checkpoints: PEM for openssl and `audit verify --key`, and the signed-note verifier key */
        get: {
            parameters: {
                query?: {
                    /** @description pem: the PEM alone, as text/plain */
                    format?: "pem";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            algorithm: "Ed25519";
                            keyId: string;
                            /** @description The key name in every signature line, and the start of each origin */
                            name: string;
                            /** @description The public key as PEM (SPKI), for `audit verify --key` and `openssl pkeyutl -verify` */
                            pem: string;
                            /** @description The signed-note verifier key: name+keyid+base64(0x01 ‖ key) */
                            verifierKey: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/checkpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Signed checkpoints of the organisation's ledger, newest first */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                hash: string;
                                id: string;
                                /** @description The signed note's key id (first 4 bytes of SHA-256 over name, 0x0A, 0x01, public key), in hex */
                                keyId: string;
                                /** @description The checkpoint as a C2SP signed note: save it as a file and give it to `audit verify --file … --checkpoint` */
                                note: string;
                                /** @description The head sequence the checkpoint signs */
                                seq: number;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                signedAt: string;
                            }[];
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Sign a checkpoint of the head now (owners and admins); the hourly job makes one whenever the head moved */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            hash: string;
                            id: string;
                            /** @description The signed note's key id (first 4 bytes of SHA-256 over name, 0x0A, 0x01, public key), in hex */
                            keyId: string;
                            /** @description The checkpoint as a C2SP signed note: save it as a file and give it to `audit verify --file … --checkpoint` */
                            note: string;
                            /** @description The head sequence the checkpoint signs */
                            seq: number;
                            /**
                             * Format: date-time
                             * @description UTC, ISO-8601 with Z
                             */
                            signedAt: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every matching audit event as NDJSON, newest first, then a trailer line with the head they lead to
         * @description Without filters the file holds the whole chain and `changeledger audit verify --file` (or scripts/verify-ledger.mjs) proves it offline. The last line is `{"trailer":{format, organization, head, events, complete, order, exportedAt, filter?}}`.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Action prefix: token. matches token.created */
                    action?: string;
                    /** @description Actor id (usr_…, token id) */
                    actor?: string;
                    correlationId?: string;
                    /** @description Free text over action, actor, target, correlation id and data */
                    q?: string;
                    /** @description A duration back from now (15m, 1h, 7d) or an ISO-8601 time */
                    since?: string;
                    targetId?: string;
                    targetType?: string;
                    /** @description A duration back from now (15m, 1h, 7d) or an ISO-8601 time */
                    until?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/settings-captures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Settings writes as before-state captures, newest first: what each write replaced, its SHA-256, and whether writing it back restores it */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    limit?: number;
                    /** @description Only the writes of these settings */
                    settings?: "alerts" | "catalogue" | "change_approvers" | "changes" | "evidence" | "flags" | "incidents" | "observed" | "unmanaged";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                action: string;
                                after: {
                                    [key: string]: unknown;
                                } | null;
                                /** @description The values the write replaced, field by field; null when the ledger does not hold them */
                                before: {
                                    [key: string]: unknown;
                                } | null;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                capturedAt: string;
                                capturedBy: string;
                                /** @enum {unknown} */
                                completeness: "complete" | "partial" | "unknown";
                                /** @enum {string} */
                                method: "settings_write";
                                note: string | null;
                                /** @enum {unknown} */
                                prestateStatus: "present" | "absent" | "unknown";
                                restorable: boolean;
                                /** @description The audit event of the write */
                                seq: number;
                                settings: string;
                                /** @description SHA-256 of the canonical JSON of before */
                                sha256: string | null;
                                sizeBytes: number;
                                /** @enum {string} */
                                source: "changeledger";
                            }[];
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/settings-captures/{seq}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One settings write, by the sequence number of its audit event, as a before-state capture */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The sequence number of the audit event */
                    seq: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A settings write as a before-state capture */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            action: string;
                            after: {
                                [key: string]: unknown;
                            } | null;
                            /** @description The values the write replaced, field by field; null when the ledger does not hold them */
                            before: {
                                [key: string]: unknown;
                            } | null;
                            /**
                             * Format: date-time
                             * @description UTC, ISO-8601 with Z
                             */
                            capturedAt: string;
                            capturedBy: string;
                            /** @enum {unknown} */
                            completeness: "complete" | "partial" | "unknown";
                            /** @enum {string} */
                            method: "settings_write";
                            note: string | null;
                            /** @enum {unknown} */
                            prestateStatus: "present" | "absent" | "unknown";
                            restorable: boolean;
                            /** @description The audit event of the write */
                            seq: number;
                            settings: string;
                            /** @description SHA-256 of the canonical JSON of before */
                            sha256: string | null;
                            sizeBytes: number;
                            /** @enum {string} */
                            source: "changeledger";
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Walk the organisation's hash chain and name the first broken event */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            checked: number;
                            firstBrokenSeq: number | null;
                            head: {
                                hash: string;
                                seq: number;
                            } | null;
                            ok: boolean;
                            reason: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/cases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Cases of unauthorized changes and denied attempts, most recently touched first (100 at most) */
        get: {
            parameters: {
                query?: {
                    /** @description Comma-separated: unauthorized_change, denied_access */
                    kind?: string;
                    /** @description Comma-separated: open, rollback_approved, rolled_back, kept, resolved */
                    status?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            cases: {
                                account: string;
                                /** @description How many writes the case holds */
                                changes: number;
                                closedAt: string | null;
                                closedBy: {
                                    id: string;
                                    name: string;
                                } | null;
                                /** @description unauthorized=<account>/<principal>@<hour> or denied_access=<account>/<principal>@<hour> */
                                correlationKey: string;
                                /** @description CASE- and 8 characters */
                                displayId: string;
                                hour: string;
                                id: string;
                                /**
                                 * @description unauthorized_change: writes nothing vouched for; denied_access: calls a source refused
                                 * @enum {unknown}
                                 */
                                kind: "unauthorized_change" | "denied_access";
                                note: string | null;
                                openedAt: string;
                                orgId: string;
                                principal: string;
                                rollbackApprovedAt: string | null;
                                rollbackApprovedBy: {
                                    id: string;
                                    name: string;
                                } | null;
                                /** @enum {unknown} */
                                status: "open" | "rollback_approved" | "rolled_back" | "kept" | "resolved";
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/cases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One case with its writes and their drafted reverts */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            case: {
                                account: string;
                                /** @description Whether the reader is one of the organisation's approvers, who answer cases */
                                canAnswer: boolean;
                                /** @description How many writes the case holds */
                                changes: number;
                                closedAt: string | null;
                                closedBy: {
                                    id: string;
                                    name: string;
                                } | null;
                                /** @description unauthorized=<account>/<principal>@<hour> or denied_access=<account>/<principal>@<hour> */
                                correlationKey: string;
                                /** @description CASE- and 8 characters */
                                displayId: string;
                                hour: string;
                                id: string;
                                /**
                                 * @description unauthorized_change: writes nothing vouched for; denied_access: calls a source refused
                                 * @enum {unknown}
                                 */
                                kind: "unauthorized_change" | "denied_access";
                                note: string | null;
                                openedAt: string;
                                orgId: string;
                                principal: string;
                                rollbackApprovedAt: string | null;
                                rollbackApprovedBy: {
                                    id: string;
                                    name: string;
                                } | null;
                                /** @enum {unknown} */
                                status: "open" | "rollback_approved" | "rolled_back" | "kept" | "resolved";
                                updatedAt: string;
                                /** @description The observed changes of the case, oldest first, each with its drafted revert */
                                writes: {
                                    [key: string]: unknown;
                                }[];
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/cases/{id}/approve-rollback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve the drafted rollback (approvers): changeledger runs nothing; run the revert with your own access, then mark it done. Audited case.rollback_approved */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Note */
                        note?: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            case: {
                                account: string;
                                /** @description Whether the reader is one of the organisation's approvers, who answer cases */
                                canAnswer: boolean;
                                /** @description How many writes the case holds */
                                changes: number;
                                closedAt: string | null;
                                closedBy: {
                                    id: string;
                                    name: string;
                                } | null;
                                /** @description unauthorized=<account>/<principal>@<hour> or denied_access=<account>/<principal>@<hour> */
                                correlationKey: string;
                                /** @description CASE- and 8 characters */
                                displayId: string;
                                hour: string;
                                id: string;
                                /**
                                 * @description unauthorized_change: writes nothing vouched for; denied_access: calls a source refused
                                 * @enum {unknown}
                                 */
                                kind: "unauthorized_change" | "denied_access";
                                note: string | null;
                                openedAt: string;
                                orgId: string;
                                principal: string;
                                rollbackApprovedAt: string | null;
                                rollbackApprovedBy: {
                                    id: string;
                                    name: string;
                                } | null;
                                /** @enum {unknown} */
                                status: "open" | "rollback_approved" | "rolled_back" | "kept" | "resolved";
                                updatedAt: string;
                                /** @description The observed changes of the case, oldest first, each with its drafted revert */
                                writes: {
                                    [key: string]: unknown;
                                }[];
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/cases/{id}/keep": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Keep the changes as legitimate (approvers) with a note of 10 characters or more: every change of the case is authorized, "kept as legitimate: <note>". Audited change.kept per change and case.change_kept; 409 once a rollback was marked as run */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Note */
                        note?: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            case: {
                                account: string;
                                /** @description Whether the reader is one of the organisation's approvers, who answer cases */
                                canAnswer: boolean;
                                /** @description How many writes the case holds */
                                changes: number;
                                closedAt: string | null;
                                closedBy: {
                                    id: string;
                                    name: string;
                                } | null;
                                /** @description unauthorized=<account>/<principal>@<hour> or denied_access=<account>/<principal>@<hour> */
                                correlationKey: string;
                                /** @description CASE- and 8 characters */
                                displayId: string;
                                hour: string;
                                id: string;
                                /**
                                 * @description unauthorized_change: writes nothing vouched for; denied_access: calls a source refused
                                 * @enum {unknown}
                                 */
                                kind: "unauthorized_change" | "denied_access";
                                note: string | null;
                                openedAt: string;
                                orgId: string;
                                principal: string;
                                rollbackApprovedAt: string | null;
                                rollbackApprovedBy: {
                                    id: string;
                                    name: string;
                                } | null;
                                /** @enum {unknown} */
                                status: "open" | "rollback_approved" | "rolled_back" | "kept" | "resolved";
                                updatedAt: string;
                                /** @description The observed changes of the case, oldest first, each with its drafted revert */
                                writes: {
                                    [key: string]: unknown;
                                }[];
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/cases/{id}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Acknowledge a case of denied attempts (approvers), with an optional note. Audited case.resolved */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Note */
                        note?: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            case: {
                                account: string;
                                /** @description Whether the reader is one of the organisation's approvers, who answer cases */
                                canAnswer: boolean;
                                /** @description How many writes the case holds */
                                changes: number;
                                closedAt: string | null;
                                closedBy: {
                                    id: string;
                                    name: string;
                                } | null;
                                /** @description unauthorized=<account>/<principal>@<hour> or denied_access=<account>/<principal>@<hour> */
                                correlationKey: string;
                                /** @description CASE- and 8 characters */
                                displayId: string;
                                hour: string;
                                id: string;
                                /**
                                 * @description unauthorized_change: writes nothing vouched for; denied_access: calls a source refused
                                 * @enum {unknown}
                                 */
                                kind: "unauthorized_change" | "denied_access";
                                note: string | null;
                                openedAt: string;
                                orgId: string;
                                principal: string;
                                rollbackApprovedAt: string | null;
                                rollbackApprovedBy: {
                                    id: string;
                                    name: string;
                                } | null;
                                /** @enum {unknown} */
                                status: "open" | "rollback_approved" | "rolled_back" | "kept" | "resolved";
                                updatedAt: string;
                                /** @description The observed changes of the case, oldest first, each with its drafted revert */
                                writes: {
                                    [key: string]: unknown;
                                }[];
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/cases/{id}/rolled-back": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark the approved rollback as run (approvers); the change can no longer be kept. Audited case.rolled_back */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Note */
                        note?: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            case: {
                                account: string;
                                /** @description Whether the reader is one of the organisation's approvers, who answer cases */
                                canAnswer: boolean;
                                /** @description How many writes the case holds */
                                changes: number;
                                closedAt: string | null;
                                closedBy: {
                                    id: string;
                                    name: string;
                                } | null;
                                /** @description unauthorized=<account>/<principal>@<hour> or denied_access=<account>/<principal>@<hour> */
                                correlationKey: string;
                                /** @description CASE- and 8 characters */
                                displayId: string;
                                hour: string;
                                id: string;
                                /**
                                 * @description unauthorized_change: writes nothing vouched for; denied_access: calls a source refused
                                 * @enum {unknown}
                                 */
                                kind: "unauthorized_change" | "denied_access";
                                note: string | null;
                                openedAt: string;
                                orgId: string;
                                principal: string;
                                rollbackApprovedAt: string | null;
                                rollbackApprovedBy: {
                                    id: string;
                                    name: string;
                                } | null;
                                /** @enum {unknown} */
                                status: "open" | "rollback_approved" | "rolled_back" | "kept" | "resolved";
                                updatedAt: string;
                                /** @description The observed changes of the case, oldest first, each with its drafted revert */
                                writes: {
                                    [key: string]: unknown;
                                }[];
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/catalog/format.schema.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** JSON Schema of the changeledger/catalogue/1 import format */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/catalog/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import an estate: our own format (YAML or JSON, with its monitoring sources), Backstage, a kubectl dump, Jaeger dependencies or OTLP traces. Idempotent; entities, links and monitoring sources the same source no longer reports are marked stale */
        post: {
            parameters: {
                query: {
                    format: "changeledger" | "backstage" | "kubernetes" | "jaeger" | "otlp";
                    source?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entities: {
                                added: number;
                                changed: number;
                                stale: number;
                                unchanged: number;
                            };
                            /** @enum {unknown} */
                            format: "changeledger" | "backstage" | "kubernetes" | "jaeger" | "otlp";
                            ignored: number;
                            links: {
                                added: number;
                                changed: number;
                                stale: number;
                                unchanged: number;
                            };
                            /** @description Routes (contracts) from traces */
                            routes: number;
                            source: string;
                            /** @description Monitoring sources (our own format only; zeros for the others) */
                            sources: {
                                added: number;
                                changed: number;
                                stale: number;
                                unchanged: number;
                            };
                            warnings: string[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/catalog/inventory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every entity with its +1 / +2 dependencies both ways, a page at a time from a snapshot of at most 60 s */
        get: {
            parameters: {
                query?: {
                    hops?: 1 | 2;
                    includeStale?: 0 | 1;
                    /** @description Comma-separated kinds: service,instance */
                    kind?: string;
                    limit?: number;
                    offset?: number;
                    /** @description Case-insensitive part of the name or key */
                    q?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entities: {
                                engine?: string;
                                key: string;
                                kind: string;
                                meta?: {
                                    environment: string | null;
                                    owner: string | null;
                                    team: string | null;
                                    tier: string | null;
                                };
                                name: string;
                                stale: boolean;
                                /**
                                 * @description A list hit 200 neighbours or the walk 2,000 edges
                                 * @enum {boolean}
                                 */
                                truncated?: true;
                                usedBy: {
                                    hop1: {
                                        key: string;
                                        kind: string;
                                        name: string;
                                        /**
                                         * @description Hop 1 only: the link is stale
                                         * @enum {boolean}
                                         */
                                        stale?: true;
                                        /**
                                         * @description Hop 1 only
                                         * @enum {unknown}
                                         */
                                        via?: "calls" | "runs-on" | "member";
                                    }[];
                                    hop2: {
                                        key: string;
                                        kind: string;
                                        name: string;
                                        /**
                                         * @description Hop 1 only: the link is stale
                                         * @enum {boolean}
                                         */
                                        stale?: true;
                                        /**
                                         * @description Hop 1 only
                                         * @enum {unknown}
                                         */
                                        via?: "calls" | "runs-on" | "member";
                                    }[];
                                };
                                uses: {
                                    hop1: {
                                        key: string;
                                        kind: string;
                                        name: string;
                                        /**
                                         * @description Hop 1 only: the link is stale
                                         * @enum {boolean}
                                         */
                                        stale?: true;
                                        /**
                                         * @description Hop 1 only
                                         * @enum {unknown}
                                         */
                                        via?: "calls" | "runs-on" | "member";
                                    }[];
                                    hop2: {
                                        key: string;
                                        kind: string;
                                        name: string;
                                        /**
                                         * @description Hop 1 only: the link is stale
                                         * @enum {boolean}
                                         */
                                        stale?: true;
                                        /**
                                         * @description Hop 1 only
                                         * @enum {unknown}
                                         */
                                        via?: "calls" | "runs-on" | "member";
                                    }[];
                                };
                            }[];
                            format: string;
                            limit: number;
                            meta: {
                                hops: number;
                                includeStale: boolean;
                                kinds: {
                                    [key: string]: number;
                                };
                                lastSweepAt: string | null;
                                staleAfterDays: number | null;
                                truncatedEntities: number;
                            };
                            offset: number;
                            /** @description The snapshot (at most 60 s old) this page was cut from; when it changes between pages, start again at offset 0 */
                            snapshotAt: string;
                            total: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/catalog/inventory/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One entity by its key, URI-encoded (svc%3Acheckout) */
        get: {
            parameters: {
                query?: {
                    hops?: 1 | 2;
                    includeStale?: 0 | 1;
                };
                header?: never;
                path: {
                    key: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entity: {
                                engine?: string;
                                key: string;
                                kind: string;
                                meta?: {
                                    environment: string | null;
                                    owner: string | null;
                                    team: string | null;
                                    tier: string | null;
                                };
                                name: string;
                                stale: boolean;
                                /**
                                 * @description A list hit 200 neighbours or the walk 2,000 edges
                                 * @enum {boolean}
                                 */
                                truncated?: true;
                                usedBy: {
                                    hop1: {
                                        key: string;
                                        kind: string;
                                        name: string;
                                        /**
                                         * @description Hop 1 only: the link is stale
                                         * @enum {boolean}
                                         */
                                        stale?: true;
                                        /**
                                         * @description Hop 1 only
                                         * @enum {unknown}
                                         */
                                        via?: "calls" | "runs-on" | "member";
                                    }[];
                                    hop2: {
                                        key: string;
                                        kind: string;
                                        name: string;
                                        /**
                                         * @description Hop 1 only: the link is stale
                                         * @enum {boolean}
                                         */
                                        stale?: true;
                                        /**
                                         * @description Hop 1 only
                                         * @enum {unknown}
                                         */
                                        via?: "calls" | "runs-on" | "member";
                                    }[];
                                };
                                uses: {
                                    hop1: {
                                        key: string;
                                        kind: string;
                                        name: string;
                                        /**
                                         * @description Hop 1 only: the link is stale
                                         * @enum {boolean}
                                         */
                                        stale?: true;
                                        /**
                                         * @description Hop 1 only
                                         * @enum {unknown}
                                         */
                                        via?: "calls" | "runs-on" | "member";
                                    }[];
                                    hop2: {
                                        key: string;
                                        kind: string;
                                        name: string;
                                        /**
                                         * @description Hop 1 only: the link is stale
                                         * @enum {boolean}
                                         */
                                        stale?: true;
                                        /**
                                         * @description Hop 1 only
                                         * @enum {unknown}
                                         */
                                        via?: "calls" | "runs-on" | "member";
                                    }[];
                                };
                            };
                            format: string;
                            meta: {
                                hops: number;
                                includeStale: boolean;
                                kinds: {
                                    [key: string]: number;
                                };
                                lastSweepAt: string | null;
                                staleAfterDays: number | null;
                                truncatedEntities: number;
                            };
                            snapshotAt: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/catalog/match": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resolve components as a registration will: exactly one name hit, else an alias, else a manual service, else up to 10 candidates */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        components?: {
                            key?: string;
                            kind?: string;
                            query?: string;
                        }[];
                        lines?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            match: {
                                matched: number;
                                unresolved: string[];
                            };
                            resolved: {
                                key: string;
                                kind: string;
                                /** @enum {unknown} */
                                match: "exact" | "alias" | "manual" | "key";
                                name: string;
                                query?: string;
                                seen: boolean;
                            }[];
                            unresolved: {
                                candidates: {
                                    key: string;
                                    kind: string;
                                    name: string;
                                }[];
                                query: string;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/catalog/routes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The routes each caller uses on each callee, from traces; caller `ingress` means requests from outside the estate (a root server span). Health probes and routes not seen for 7 days left out unless asked */
        get: {
            parameters: {
                query?: {
                    callee?: string;
                    caller?: string;
                    includeProbes?: 0 | 1;
                    includeStale?: 0 | 1;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                callee: string;
                                caller: string;
                                calls: number;
                                errorShare: number;
                                lastSeen: string;
                                method: string | null;
                                p95Ms: number;
                                probe: boolean;
                                route: string;
                                samplePath: string | null;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/change-calendar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A month of windows and the planned changes inside it (the calendar) */
        get: {
            parameters: {
                query: {
                    /** @description YYYY-MM (UTC) */
                    month: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            changes: {
                                /** @enum {unknown} */
                                changeClass: "standard" | "normal" | "emergency";
                                displayId: string;
                                id: string;
                                riskTier: ("L1" | "L2" | "L3") | null;
                                status: string;
                                title: string;
                                windowBypassed: boolean;
                                windowEnd: string;
                                windowStart: string;
                            }[];
                            from: string;
                            occurrences: {
                                end: string;
                                /** @enum {unknown} */
                                kind: "change" | "freeze";
                                name: string;
                                start: string;
                                windowId: string;
                            }[];
                            to: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/change-sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organisation’s change sources: endpoint to paste, counts, last event and pull (secrets and credentials never answered) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sources: components["schemas"]["ChangeSource"][];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Add a change source {kind, name, config?, credential?, pullEnabled?}: answers its secret once and the endpoint (audited change_source.created) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Settings
                         * @description github: {apiUrl?, repos[]}; gitlab: {apiUrl?, projects[]}; aws: {regions[], endpoint?}; kubernetes: {cluster?}; azure: {subscription?}; none for the others
                         */
                        config?: unknown;
                        /**
                         * Credential
                         * @description What a pull signs in with (write-only, sealed): a GitHub or GitLab token, AWS keys {accessKeyId, secretAccessKey, sessionToken?}; on a PUT, null removes it and leaving it out keeps it
                         */
                        credential?: unknown;
                        /**
                         * Kind
                         * @description Which sender: github, gitlab, argocd, kubernetes (audit webhook), aws (CloudTrail via EventBridge), azure (Activity Log), pagerduty (change events), cloudevents, webhook (generic)
                         * @enum {unknown}
                         */
                        kind: "github" | "gitlab" | "argocd" | "kubernetes" | "aws" | "azure" | "pagerduty" | "cloudevents" | "webhook";
                        /** Name */
                        name: string;
                        /**
                         * Scheduled pull
                         * @description false: this connection opts out of the scheduled pull (webhooks still arrive)
                         */
                        pullEnabled?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The connection's secret: shown this once, never again (rotate it to get a new one) */
                            secret: string;
                            source: components["schemas"]["ChangeSource"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/change-sources/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One change source */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            source: components["schemas"]["ChangeSource"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Change a change source; credential left out keeps it, null removes it (audited change_source.updated) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Settings
                         * @description github: {apiUrl?, repos[]}; gitlab: {apiUrl?, projects[]}; aws: {regions[], endpoint?}; kubernetes: {cluster?}; azure: {subscription?}; none for the others
                         */
                        config?: unknown;
                        /**
                         * Credential
                         * @description What a pull signs in with (write-only, sealed): a GitHub or GitLab token, AWS keys {accessKeyId, secretAccessKey, sessionToken?}; on a PUT, null removes it and leaving it out keeps it
                         */
                        credential?: unknown;
                        /**
                         * Kind
                         * @description Which sender: github, gitlab, argocd, kubernetes (audit webhook), aws (CloudTrail via EventBridge), azure (Activity Log), pagerduty (change events), cloudevents, webhook (generic)
                         * @enum {unknown}
                         */
                        kind?: "github" | "gitlab" | "argocd" | "kubernetes" | "aws" | "azure" | "pagerduty" | "cloudevents" | "webhook";
                        /** Name */
                        name?: string;
                        /**
                         * Scheduled pull
                         * @description false: this connection opts out of the scheduled pull (webhooks still arrive)
                         */
                        pullEnabled?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            source: components["schemas"]["ChangeSource"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        /** Remove a change source (audited change_source.deleted); its records stay in the ledger */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/change-sources/{id}/pull": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pull the last N minutes now, under the manual marker (the scheduled pull’s is left alone); audited change_source.pulled */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Minutes
                         * @description Read the last N minutes (1 to 10,080, a week)
                         */
                        minutes: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            counts: components["schemas"]["ChangeSourceCounts"] | null;
                            message: string;
                            ok: boolean;
                            since: string;
                            until: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/change-sources/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new secret, answered once; the old one stops working (audited change_source.secret_rotated) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The connection's secret: shown this once, never again (rotate it to get a new one) */
                            secret: string;
                            source: components["schemas"]["ChangeSource"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/change-sources/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A pull kind reads its API’s last day (nothing recorded); a pushed source says whether an event arrived and gives the curl line to send one (audited) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            curl: string | null;
                            message: string;
                            ok: boolean;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/change-templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Standard-change templates: the pre-approved operations */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: components["schemas"]["ChangeTemplate"][];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Draft a template (owners and admins); a different owner or approver certifies it */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        /** @description Environments allowed (globs); empty: any, but a change must then name none */
                        environments?: string[];
                        /** Hops at most */
                        hops: 1 | 2;
                        /**
                         * Kind
                         * @enum {unknown}
                         */
                        kind: "deploy" | "config" | "infra" | "other";
                        /** Largest blast radius (services) */
                        maxBlastServices: number;
                        /** Name */
                        name: string;
                        /** @description Pipelines allowed (globs); empty: any */
                        pipelines?: string[];
                        /** @description Repositories allowed (globs); empty: any */
                        repos?: string[];
                        /** @description Catalogue keys or globs the change’s components must all match (svc:checkout, svc:pay*, or a bare service name) */
                        services: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Who drafted this version */
                            author: {
                                email: string;
                                id: string;
                            };
                            certifiedAt: string | null;
                            certifiedBy: {
                                email: string;
                                id: string;
                            } | null;
                            certifiedVersion: number | null;
                            createdAt: string;
                            demotedAt: string | null;
                            demotedByChange: string | null;
                            description: string;
                            environments: string[];
                            hops: number;
                            id: string;
                            kind: string;
                            maxBlastServices: number;
                            name: string;
                            pipelines: string[];
                            repos: string[];
                            services: string[];
                            /**
                             * @description draft until a different owner or approver certifies it; an edit makes it a draft again
                             * @enum {unknown}
                             */
                            state: "draft" | "certified" | "withdrawn";
                            updatedAt: string;
                            version: number;
                            withdrawnReason: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/change-templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One template */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Who drafted this version */
                            author: {
                                email: string;
                                id: string;
                            };
                            certifiedAt: string | null;
                            certifiedBy: {
                                email: string;
                                id: string;
                            } | null;
                            certifiedVersion: number | null;
                            createdAt: string;
                            demotedAt: string | null;
                            demotedByChange: string | null;
                            description: string;
                            environments: string[];
                            hops: number;
                            id: string;
                            kind: string;
                            maxBlastServices: number;
                            name: string;
                            pipelines: string[];
                            repos: string[];
                            services: string[];
                            /**
                             * @description draft until a different owner or approver certifies it; an edit makes it a draft again
                             * @enum {unknown}
                             */
                            state: "draft" | "certified" | "withdrawn";
                            updatedAt: string;
                            version: number;
                            withdrawnReason: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Edit a template: a new version, no longer certified; changes it made standard that have not started drop to normal */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        /** @description Environments allowed (globs); empty: any, but a change must then name none */
                        environments?: string[];
                        /** Hops at most */
                        hops?: 1 | 2;
                        /**
                         * Kind
                         * @enum {unknown}
                         */
                        kind?: "deploy" | "config" | "infra" | "other";
                        /** Largest blast radius (services) */
                        maxBlastServices?: number;
                        /** Name */
                        name?: string;
                        /** @description Pipelines allowed (globs); empty: any */
                        pipelines?: string[];
                        /** @description Repositories allowed (globs); empty: any */
                        repos?: string[];
                        /** @description Catalogue keys or globs the change’s components must all match (svc:checkout, svc:pay*, or a bare service name) */
                        services?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            dropped: number;
                            template: components["schemas"]["ChangeTemplate"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/change-templates/{id}/certify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Certify the current version (an owner or designated approver who did not draft it; 403 for its author) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Who drafted this version */
                            author: {
                                email: string;
                                id: string;
                            };
                            certifiedAt: string | null;
                            certifiedBy: {
                                email: string;
                                id: string;
                            } | null;
                            certifiedVersion: number | null;
                            createdAt: string;
                            demotedAt: string | null;
                            demotedByChange: string | null;
                            description: string;
                            environments: string[];
                            hops: number;
                            id: string;
                            kind: string;
                            maxBlastServices: number;
                            name: string;
                            pipelines: string[];
                            repos: string[];
                            services: string[];
                            /**
                             * @description draft until a different owner or approver certifies it; an edit makes it a draft again
                             * @enum {unknown}
                             */
                            state: "draft" | "certified" | "withdrawn";
                            updatedAt: string;
                            version: number;
                            withdrawnReason: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/change-templates/{id}/withdraw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Withdraw a template, saying why; changes it made standard that have not started drop to normal */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        reason: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            dropped: number;
                            template: components["schemas"]["ChangeTemplate"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/change-windows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Change and freeze windows */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: components["schemas"]["ChangeWindow"][];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Add a window (owners and admins); a bad RRULE or time zone is a 400 naming the field */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string | null;
                        /** @enum {unknown} */
                        kind: "change" | "freeze";
                        name: string;
                        /** @description A recurring rule with a duration in a time zone {type: rrule, rrule, start, durationMinutes, timeZone, exdates?}, or a one-off {type: once, start, end} (ISO instants) */
                        schedule: unknown;
                        /** @description Which changes the window applies to: {type: all}, {type: services, services: [keys or globs]}, {type: environments, environments: [...]}, or {type: criticality, atLeast} */
                        scope?: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            description: string | null;
                            feed: string | null;
                            id: string;
                            /** @enum {unknown} */
                            kind: "change" | "freeze";
                            name: string;
                            /** @description A recurring rule with a duration in a time zone {type: rrule, rrule, start, durationMinutes, timeZone, exdates?}, or a one-off {type: once, start, end} (ISO instants) */
                            schedule: {
                                /** @description 1 – 10,080 */
                                durationMinutes: number;
                                /** @description Local starts of occurrences to skip */
                                exdates?: string[];
                                /** @description An RFC 5545 RRULE value, e.g. FREQ=WEEKLY;BYDAY=SA,SU */
                                rrule: string;
                                /** @description The first occurrence, local time YYYY-MM-DDTHH:MM in timeZone */
                                start: string;
                                /** @description IANA, e.g. Europe/Berlin */
                                timeZone: string;
                                /** @enum {string} */
                                type: "rrule";
                            } | {
                                end: string;
                                start: string;
                                /** @enum {string} */
                                type: "once";
                            };
                            /** @description Which changes the window applies to: {type: all}, {type: services, services: [keys or globs]}, {type: environments, environments: [...]}, or {type: criticality, atLeast} */
                            scope: {
                                /** @enum {string} */
                                type: "all";
                            } | {
                                services: string[];
                                /** @enum {string} */
                                type: "services";
                            } | {
                                environments: string[];
                                /** @enum {string} */
                                type: "environments";
                            } | {
                                /** @enum {unknown} */
                                atLeast: "standard" | "important" | "critical";
                                /** @enum {string} */
                                type: "criticality";
                            };
                            sourceUid: string | null;
                            updatedAt: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/change-windows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change a window */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string | null;
                        /** @enum {unknown} */
                        kind?: "change" | "freeze";
                        name?: string;
                        /** @description A recurring rule with a duration in a time zone {type: rrule, rrule, start, durationMinutes, timeZone, exdates?}, or a one-off {type: once, start, end} (ISO instants) */
                        schedule?: unknown;
                        /** @description Which changes the window applies to: {type: all}, {type: services, services: [keys or globs]}, {type: environments, environments: [...]}, or {type: criticality, atLeast} */
                        scope?: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            description: string | null;
                            feed: string | null;
                            id: string;
                            /** @enum {unknown} */
                            kind: "change" | "freeze";
                            name: string;
                            /** @description A recurring rule with a duration in a time zone {type: rrule, rrule, start, durationMinutes, timeZone, exdates?}, or a one-off {type: once, start, end} (ISO instants) */
                            schedule: {
                                /** @description 1 – 10,080 */
                                durationMinutes: number;
                                /** @description Local starts of occurrences to skip */
                                exdates?: string[];
                                /** @description An RFC 5545 RRULE value, e.g. FREQ=WEEKLY;BYDAY=SA,SU */
                                rrule: string;
                                /** @description The first occurrence, local time YYYY-MM-DDTHH:MM in timeZone */
                                start: string;
                                /** @description IANA, e.g. Europe/Berlin */
                                timeZone: string;
                                /** @enum {string} */
                                type: "rrule";
                            } | {
                                end: string;
                                start: string;
                                /** @enum {string} */
                                type: "once";
                            };
                            /** @description Which changes the window applies to: {type: all}, {type: services, services: [keys or globs]}, {type: environments, environments: [...]}, or {type: criticality, atLeast} */
                            scope: {
                                /** @enum {string} */
                                type: "all";
                            } | {
                                services: string[];
                                /** @enum {string} */
                                type: "services";
                            } | {
                                environments: string[];
                                /** @enum {string} */
                                type: "environments";
                            } | {
                                /** @enum {unknown} */
                                atLeast: "standard" | "important" | "critical";
                                /** @enum {string} */
                                type: "criticality";
                            };
                            sourceUid: string | null;
                            updatedAt: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        /** Remove a window */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/change-windows/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The one matcher, as a preview: may a change with these facts start at this instant (allowed, the window, why, the next opening)? With an end, also what the planned window runs into */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The planned start; default now */
                        at?: string;
                        criticality?: ("standard" | "important" | "critical") | null;
                        /** @description The planned end: the answer then lists the conflicts of [at, end) */
                        end?: string;
                        environment?: string;
                        services?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowed: boolean;
                            conflicts?: components["schemas"]["WindowConflict"][];
                            nextOpening: string | null;
                            reason: string;
                            window: {
                                end: string;
                                id: string;
                                /** @enum {unknown} */
                                kind: "change" | "freeze";
                                name: string;
                                start: string;
                            } | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/change-windows/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import freeze windows from an iCalendar feed (url) or file (ics); a re-import of the same feed updates, adds and removes its windows */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The feed’s name (default: the url); required with ics */
                        feed?: string;
                        /** @description The calendar’s text */
                        ics?: string;
                        /** @description The scope of every imported freeze (default all) */
                        scope?: unknown;
                        /** @description For floating times and all-day events when the calendar names no zone (default UTC) */
                        timeZone?: string;
                        /** @description An .ics address, fetched through the outbound guard */
                        url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            calendarName: string | null;
                            created: number;
                            feed: string;
                            removed: number;
                            skipped: {
                                name: string | null;
                                reason: string;
                                uid: string | null;
                            }[];
                            unchanged: number;
                            updated: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The one change list: planned changes, flag writes and observed changes, newest first (at most 200), with what the connected sources cannot see */
        get: {
            parameters: {
                query?: {
                    /** @description Only changes waiting for the signed-in person’s decision: a designated approver, not the requester, not yet decided */
                    awaiting?: "me";
                    /** @description Only planned changes with this entity key among their components or in their blast radius scope */
                    component?: string;
                    /** @description Comma-separated: critical, important, standard, pending (a tier still to classify); planned changes only */
                    criticality?: string;
                    /** @description Only denied attempts (writes the source refused); without it they are left out */
                    denied?: "true";
                    /** @description Flag change requests waiting for approval are listed too */
                    include_proposed?: "true";
                    /** @description Comma-separated kinds: deploy, config, infra, other (planned), push, pr_merged, deploy, sync, release, tag, health, k8s_write, cloud_write, change (observed), flag */
                    kind?: string;
                    limit?: number;
                    /** @description Planned changes the caller registered (flag writes and observed changes left out) */
                    mine?: "1";
                    /** @description Comma-separated channels: ui, api, pipeline (registered), ui, api, cli, gitops, automation (flag writes), an observed event kind, or platform (everything changeledger recorded itself) */
                    mode?: string;
                    /** @description Part of the title or of a service, or a CHG- id */
                    q?: string;
                    /** @description Only planned changes and flag change requests, those waiting on a person first */
                    requests?: "true";
                    /** @description A service key or name: a planned change’s component, a flag’s owner, an observed change’s linked service */
                    service?: string;
                    /** @description A planned change whose window ends at or after this, anything else that happened at or after it: a duration back from now (24h, 7d) or an ISO-8601 time */
                    since?: string;
                    /** @description Comma-separated: changeledger (registered), flags, or a connection kind (github, gitlab, argocd, kubernetes, aws, azure, pagerduty, cloudevents, webhook) */
                    source?: string;
                    /** @description Comma-separated statuses: a planned change’s, or recorded (flag writes and observed changes) */
                    status?: string;
                    /** @description Only changes judged unauthorized (authorized = false); never a denied attempt */
                    unauthorized?: "true";
                    /** @description A planned change whose window starts at or before this, anything else that happened by then: a duration back from now or an ISO-8601 time */
                    until?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            changes: ({
                                aborted: boolean;
                                aiImpact: string | null;
                                approvalDigest: string | null;
                                approvalExpiresAt: string | null;
                                approvedDigest: string | null;
                                /** @description A planned change’s window start, a flag write’s time, an observed event’s time */
                                at: string;
                                authorized: boolean | null;
                                autoStart: boolean;
                                blastVersion: number;
                                /**
                                 * @description How its callbacks are shaped (changeledger or cloudevents)
                                 * @enum {unknown}
                                 */
                                callbackFormat: "changeledger" | "cloudevents";
                                callbackUrl: string | null;
                                captureDigest: string | null;
                                /** @enum {unknown} */
                                changeClass: "standard" | "normal" | "emergency";
                                changeClassCause: ("template_withdrawn" | "template_edited" | "template_uncovered" | "template_demoted") | null;
                                changeClassReason: string;
                                /**
                                 * @description The rule that decided the class
                                 * @enum {unknown}
                                 */
                                changeClassSource: "emergency" | "template" | "default" | "reclassified";
                                components: {
                                    key: string;
                                    kind: string;
                                    match: string;
                                    name: string;
                                    query?: string;
                                    seen: boolean;
                                }[];
                                componentTiers: {
                                    [key: string]: ("critical" | "important" | "standard") | null;
                                };
                                createdAt: string;
                                criticality: ("critical" | "important" | "standard") | null;
                                criticalitySource: ("components" | "blast" | "none" | "pending") | null;
                                decidedAt: string | null;
                                /** @description A denied attempt: the source refused the write */
                                denied: boolean;
                                description: string | null;
                                diff: string | null;
                                displayId: string;
                                emergency: {
                                    link: string;
                                    reason: string;
                                } | null;
                                endReason: string | null;
                                evaluateAt: string | null;
                                evidenceMinutes: number;
                                finishedAt: string | null;
                                gated: boolean;
                                hops: number;
                                id: string;
                                impact: string | null;
                                /** @enum {unknown} */
                                kind: "deploy" | "config" | "infra" | "other";
                                link: string | null;
                                maxDurationMinutes: number | null;
                                /** @description The channel: ui, api, pipeline; a flag write’s source; an observed change’s event kind */
                                mode: string;
                                notes: string | null;
                                /** @enum {string} */
                                origin: "registered";
                                outcome: ("success" | "partial" | "rolled_back" | "unknown") | null;
                                outcomeBy: ("pipeline" | "person" | "window") | null;
                                owner: {
                                    email: string;
                                    id: string;
                                    name: string;
                                };
                                pipeline: {
                                    baseCommit?: string;
                                    commit?: string;
                                    environment?: string;
                                    pipeline?: string;
                                    repo?: string;
                                    run?: string;
                                    runUrl?: string;
                                    version?: string;
                                } | null;
                                /** @description Who made the change, whatever the source */
                                principal: {
                                    detail: {
                                        [key: string]: string;
                                    };
                                    id: string | null;
                                    /** @enum {unknown} */
                                    kind: "person" | "token" | "service" | "system" | "unknown";
                                    name: string;
                                };
                                quorum: number | null;
                                recipients: string[];
                                rejectionReason: string | null;
                                relativeWindow: boolean;
                                releaseHeld: boolean;
                                reportedAt: string | null;
                                reportVersion: number;
                                riskReason: string | null;
                                riskTier: ("L1" | "L2" | "L3") | null;
                                rollbackCompletedAt: string | null;
                                rollbackDecision: {
                                    at: string;
                                    /** @enum {unknown} */
                                    decision: "execute" | "escalate" | "skip";
                                    reason: string;
                                } | null;
                                rollbackRequestedAt: string | null;
                                rollbackState: ("requested" | "rolled_back" | "failed") | null;
                                /** @description The main service key; "" when none (unmapped) */
                                service: string;
                                services: string[];
                                silenceInfra: ("dedicated" | "all" | "none") | null;
                                /** @description changeledger, flags, or the connection kind */
                                source: string;
                                startDeadline: string | null;
                                startedAt: string | null;
                                /** @enum {unknown} */
                                status: "draft" | "scheduled" | "pending_mapping" | "pending_approval" | "approved" | "rejected" | "expired" | "active" | "evaluating" | "reported" | "cancelled";
                                template: {
                                    id: string;
                                    version: number;
                                } | null;
                                ticket: {
                                    id: string;
                                    key: string;
                                    /** @enum {unknown} */
                                    kind: "jira" | "asana" | "servicenow" | "webhook";
                                    url: string | null;
                                } | null;
                                ticketUrl: string | null;
                                title: string;
                                unresolved: {
                                    candidates: {
                                        key: string;
                                        kind: string;
                                        name: string;
                                    }[];
                                    query: string;
                                }[];
                                updatedAt: string;
                                validationCheckedAt: string | null;
                                validationPlan: {
                                    [key: string]: unknown;
                                }[] | null;
                                validationResult: ("cleared" | "still_present" | "uncertain") | null;
                                viaProxyId: null;
                                viaTokenId: string | null;
                                windowBypassed: {
                                    approvals: number;
                                    at: string;
                                    kind: string;
                                    window: string;
                                } | null;
                                windowEnd: string;
                                windowStart: string;
                            } | {
                                /** @description A planned change’s window start, a flag write’s time, an observed event’s time */
                                at: string;
                                authorized: boolean | null;
                                /** @description A denied attempt: the source refused the write */
                                denied: boolean;
                                /** @description The origin’s own fields: a flag write’s flag, env, from, to, reason; an observed row’s eventId, action, resource, location, params, serviceVia, errorCode, outcome, changeRef … */
                                detail: {
                                    [key: string]: unknown;
                                };
                                diff: string | null;
                                displayId: string;
                                id: string;
                                /** @enum {unknown} */
                                kind: "push" | "pr_merged" | "deploy" | "sync" | "release" | "tag" | "health" | "k8s_write" | "cloud_write" | "change" | "flag";
                                link: string | null;
                                /** @description The channel: ui, api, pipeline; a flag write’s source; an observed change’s event kind */
                                mode: string;
                                /** @enum {unknown} */
                                origin: "flag" | "observed";
                                /** @description Who made the change, whatever the source */
                                principal: {
                                    detail: {
                                        [key: string]: string;
                                    };
                                    id: string | null;
                                    /** @enum {unknown} */
                                    kind: "person" | "token" | "service" | "system" | "unknown";
                                    name: string;
                                };
                                /** @description The main service key; "" when none (unmapped) */
                                service: string;
                                services: string[];
                                /** @description changeledger, flags, or the connection kind */
                                source: string;
                                /**
                                 * @description recorded; a flag change request waiting for approval is pending_approval
                                 * @enum {unknown}
                                 */
                                status: "recorded" | "pending_approval";
                                title: string;
                            })[];
                            /** @description What the organisation’s connected sources cannot see: an empty list means nothing in what we can see */
                            neverCaptured: string[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Register a change: 201 {change, blast, match, approval | mapping, callbackSecret}; 409 needsConfirm (100 services or more); 422 refused */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Start the moment it is approved */
                        autoStart?: boolean;
                        /** Before-state */
                        beforeState?: {
                            /** @description A manifest or config file as text (kept byte for byte) or JSON (kept as canonical JSON): at most 256 KiB */
                            artifact?: string | {
                                [key: string]: unknown;
                            } | unknown[];
                            /** @description What the artifact is, such as deploy/checkout.yaml */
                            artifactName?: string;
                            /**
                             * @description complete: the whole state; partial: part of it; unknown
                             * @enum {unknown}
                             */
                            completeness?: "complete" | "partial" | "unknown";
                            /**
                             * @description present: it existed before; absent: the change creates it; unknown
                             * @enum {unknown}
                             */
                            prestateStatus?: "present" | "absent" | "unknown";
                        };
                        /**
                         * Callback format
                         * @description changeledger (when not given): {event, deliveryId, occurredAt, change}; cloudevents: a CloudEvents 1.0 structured-mode event (application/cloudevents+json) carrying the same payload, signed the same way
                         * @enum {unknown}
                         */
                        callbackFormat?: "changeledger" | "cloudevents";
                        /** @description http(s): signed callbacks at every step; the 201 carries callbackSecret once */
                        callbackUrl?: string;
                        /** Components */
                        components: {
                            /** @example svc:checkout-api */
                            key?: string;
                            /** @enum {unknown} */
                            kind?: "service" | "instance" | "database" | "schema" | "vm" | "host" | "datastore" | "pod" | "node" | "device" | "external" | "integration" | "workload" | "volume";
                            /** @example checkout-api */
                            query?: string;
                        }[];
                        /** @description Required when the scope has 100 services or more */
                        confirmLarge?: boolean;
                        /** Description */
                        description?: string;
                        /** @description Save without scheduling it (PUT with draft: false submits it) */
                        draft?: boolean;
                        /** @description An emergency change: needs emergencyReason and an incident or ticketUrl; L3, and may pass a closed window once its quorum (≥ 2 people) approved it */
                        emergency?: boolean;
                        /** Emergency reason */
                        emergencyReason?: string;
                        /**
                         * Evidence horizon (minutes)
                         * @description The surveillance horizon; default the organisation’s
                         */
                        evidenceMinutes?: number;
                        /**
                         * Hops
                         * @default 1
                         */
                        hops?: 1 | 2;
                        /**
                         * Incident
                         * @description The incident the emergency answers: an id or a URL
                         */
                        incident?: string;
                        /**
                         * Kind
                         * @default other
                         * @enum {unknown}
                         */
                        kind?: "deploy" | "config" | "infra" | "other";
                        /**
                         * Duration (minutes)
                         * @description A pipeline window now … now + d, re-stamped when the change starts
                         */
                        maxDurationMinutes?: number;
                        /**
                         * Pipeline
                         * @description Who registered it; each value ≤ 200 characters
                         */
                        pipeline?: {
                            baseCommit?: string;
                            commit?: string;
                            environment?: string;
                            pipeline?: string;
                            repo?: string;
                            run?: string;
                            runUrl?: string;
                            version?: string;
                        };
                        /**
                         * Previous commit
                         * @description The commit running before the change
                         */
                        previousCommit?: string;
                        /**
                         * Previous version
                         * @description The version running before the change
                         */
                        previousVersion?: string;
                        /** Report recipients */
                        recipients?: string[];
                        /** @default true */
                        releaseHeld?: boolean;
                        /** Rollback */
                        rollback?: {
                            /**
                             * Rollback kind
                             * @description revert_flag (changeledger writes the flags back), redeploy_previous (the pipeline is asked to redeploy the previous version), manual
                             * @enum {unknown}
                             */
                            kind: "revert_flag" | "redeploy_previous" | "manual";
                            /**
                             * Rollback plan
                             * @description The way back in words, at most 4,000 characters
                             */
                            plan?: string;
                        };
                        silenceInfra?: ("dedicated" | "all" | "none") | null;
                        /** @description Start the window now (windowEnd defaults to now + 1 h) */
                        startNow?: boolean;
                        /** @description Alias of evidenceMinutes (evidenceMinutes wins) */
                        surveillanceMinutes?: number;
                        /**
                         * Template
                         * @description A certified standard-change template (name or id) the change claims; standard when its scope contains the change
                         */
                        template?: string;
                        ticketUrl?: string;
                        /** Title */
                        title: string;
                        /**
                         * Validation plan
                         * @description At most 10 checks run after completion: {id, target, check: promql | http, query or url, expected: {op, value}, group?, direction?, hops?}
                         */
                        validationPlan?: unknown[];
                        /**
                         * End (UTC)
                         * @description 5 min – 7 days after the start
                         */
                        windowEnd?: string;
                        /**
                         * Start (UTC)
                         * @description ISO-8601 date-time
                         */
                        windowStart?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            approval?: components["schemas"]["RegisteredApproval"];
                            blast: components["schemas"]["Blast"] | null;
                            /** @description cs_…, only when callbackUrl was sent: returned once */
                            callbackSecret?: string;
                            change: components["schemas"]["Change"];
                            /** @description Its class and risk tier, and what the tier asks */
                            governance?: {
                                /** @enum {unknown} */
                                changeClass: "standard" | "normal" | "emergency";
                                changeClassReason: string;
                                policy: string;
                                riskReason: string;
                                /** @enum {unknown} */
                                riskTier: "L1" | "L2" | "L3";
                            };
                            mapping?: {
                                hint: string;
                                unresolved: {
                                    candidates: {
                                        key: string;
                                        kind: string;
                                        name: string;
                                    }[];
                                    query: string;
                                }[];
                            };
                            match: {
                                matched: number;
                                unresolved: string[];
                            };
                            /** @description registered, but something will not work as sent: a private callbackUrl while allowPrivateCallbacks is off */
                            warnings?: string[];
                            /** @description The windows at the planned start (allowed, the window, why, the next opening) and what the planned window runs into */
                            windows?: {
                                conflicts: components["schemas"]["WindowConflict"][];
                                verdict: components["schemas"]["WindowVerdict"];
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One change; include=blast,events,reports adds its blast radius (completed from the current graph where it was trimmed), its timeline and its reports */
        get: {
            parameters: {
                query?: {
                    include?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            blast?: components["schemas"]["Blast"] | null;
                            change: components["schemas"]["Change"];
                            events?: {
                                /** @example token.created */
                                action: string;
                                actor: {
                                    /** @description Which automation acted */
                                    automation: string | null;
                                    id: string | null;
                                    /** @enum {unknown} */
                                    kind: "user" | "token" | "service" | "automation" | "system";
                                    name: string;
                                    /** @description What set the automation off */
                                    trigger: string | null;
                                };
                                correlationId: string | null;
                                data: {
                                    [key: string]: unknown;
                                };
                                hash: string;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                occurredAt: string;
                                prevHash: string;
                                requestId: string | null;
                                schemaVersion: number;
                                /** @description Gap-free per organisation */
                                seq: number;
                                /** @enum {unknown} */
                                source: "ui" | "api" | "cli" | "webhook" | "scheduler" | "system";
                                target: {
                                    id: string;
                                    type: string;
                                };
                            }[];
                            receipts: {
                                action: string | null;
                                at: string;
                                diff: string | null;
                                eventId: string;
                                kind: string;
                                link: string | null;
                                location: {
                                    [key: string]: string;
                                };
                                /** @description Who made the change, whatever the source */
                                principal: {
                                    detail: {
                                        [key: string]: string;
                                    };
                                    id: string | null;
                                    /** @enum {unknown} */
                                    kind: "person" | "token" | "service" | "system" | "unknown";
                                    name: string;
                                };
                                receivedAt: string;
                                resource: string | null;
                                source: string;
                                title: string;
                            }[];
                            reports?: components["schemas"]["ChangeReport"][];
                            scopeBreakdown?: string;
                            scopeLine?: string;
                            suppression: components["schemas"]["Suppression"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Edit a draft or scheduled change (a new blast-radius version); draft: false submits a draft */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Start the moment it is approved */
                        autoStart?: boolean;
                        /**
                         * Callback format
                         * @description changeledger (when not given): {event, deliveryId, occurredAt, change}; cloudevents: a CloudEvents 1.0 structured-mode event (application/cloudevents+json) carrying the same payload, signed the same way
                         * @enum {unknown}
                         */
                        callbackFormat?: "changeledger" | "cloudevents";
                        /** @description http(s): signed callbacks at every step; the 201 carries callbackSecret once */
                        callbackUrl?: string;
                        /** Components */
                        components?: {
                            /** @example svc:checkout-api */
                            key?: string;
                            /** @enum {unknown} */
                            kind?: "service" | "instance" | "database" | "schema" | "vm" | "host" | "datastore" | "pod" | "node" | "device" | "external" | "integration" | "workload" | "volume";
                            /** @example checkout-api */
                            query?: string;
                        }[];
                        /** @description Required when the scope has 100 services or more */
                        confirmLarge?: boolean;
                        /** Description */
                        description?: string;
                        /** @description Save without scheduling it (PUT with draft: false submits it) */
                        draft?: boolean;
                        /** @description An emergency change: needs emergencyReason and an incident or ticketUrl; L3, and may pass a closed window once its quorum (≥ 2 people) approved it */
                        emergency?: boolean;
                        /** Emergency reason */
                        emergencyReason?: string;
                        /**
                         * Evidence horizon (minutes)
                         * @description The surveillance horizon; default the organisation’s
                         */
                        evidenceMinutes?: number;
                        /**
                         * Hops
                         * @default 1
                         */
                        hops?: 1 | 2;
                        /**
                         * Incident
                         * @description The incident the emergency answers: an id or a URL
                         */
                        incident?: string;
                        /**
                         * Kind
                         * @default other
                         * @enum {unknown}
                         */
                        kind?: "deploy" | "config" | "infra" | "other";
                        /**
                         * Duration (minutes)
                         * @description A pipeline window now … now + d, re-stamped when the change starts
                         */
                        maxDurationMinutes?: number;
                        /**
                         * Pipeline
                         * @description Who registered it; each value ≤ 200 characters
                         */
                        pipeline?: {
                            baseCommit?: string;
                            commit?: string;
                            environment?: string;
                            pipeline?: string;
                            repo?: string;
                            run?: string;
                            runUrl?: string;
                            version?: string;
                        };
                        /** Report recipients */
                        recipients?: string[];
                        /** @default true */
                        releaseHeld?: boolean;
                        silenceInfra?: ("dedicated" | "all" | "none") | null;
                        /** @description Start the window now (windowEnd defaults to now + 1 h) */
                        startNow?: boolean;
                        /** @description Alias of evidenceMinutes (evidenceMinutes wins) */
                        surveillanceMinutes?: number;
                        /**
                         * Template
                         * @description A certified standard-change template (name or id) the change claims; standard when its scope contains the change
                         */
                        template?: string;
                        ticketUrl?: string;
                        /** Title */
                        title?: string;
                        /**
                         * End (UTC)
                         * @description 5 min – 7 days after the start
                         */
                        windowEnd?: string;
                        /**
                         * Start (UTC)
                         * @description ISO-8601 date-time
                         */
                        windowStart?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            approval?: components["schemas"]["RegisteredApproval"];
                            blast: components["schemas"]["Blast"] | null;
                            /** @description cs_…, only when callbackUrl was sent: returned once */
                            callbackSecret?: string;
                            change: components["schemas"]["Change"];
                            /** @description Its class and risk tier, and what the tier asks */
                            governance?: {
                                /** @enum {unknown} */
                                changeClass: "standard" | "normal" | "emergency";
                                changeClassReason: string;
                                policy: string;
                                riskReason: string;
                                /** @enum {unknown} */
                                riskTier: "L1" | "L2" | "L3";
                            };
                            mapping?: {
                                hint: string;
                                unresolved: {
                                    candidates: {
                                        key: string;
                                        kind: string;
                                        name: string;
                                    }[];
                                    query: string;
                                }[];
                            };
                            match: {
                                matched: number;
                                unresolved: string[];
                            };
                            /** @description registered, but something will not work as sent: a private callbackUrl while allowPrivateCallbacks is off */
                            warnings?: string[];
                            /** @description The windows at the planned start (allowed, the window, why, the next opening) and what the planned window runs into */
                            windows?: {
                                conflicts: components["schemas"]["WindowConflict"][];
                                verdict: components["schemas"]["WindowVerdict"];
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/abort": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Abort a running change (outcome rolled_back unless given) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        notes?: string;
                        /** @enum {unknown} */
                        outcome?: "success" | "partial" | "rolled_back" | "unknown";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            change: components["schemas"]["Change"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A change's alert evidence in one answer: what fired or recovered in its window, transitions per subject, what was already in error at its start, how often each subject entered error */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            alerts: (components["schemas"]["Alert"] & {
                                inScope: boolean;
                                /** @description What this change's hold did with it; null: not held by it */
                                outcome: ("held" | "resent" | "recovered" | "kept") | null;
                            })[];
                            change: {
                                displayId: string;
                                id: string;
                                title: string;
                            };
                            preExisting: {
                                fingerprints: string[];
                                label: string;
                                /** @description The catalogue entity the alert is about; unmapped: none (recorded, never held) */
                                subject: {
                                    key: string;
                                    /** @enum {unknown} */
                                    kind: "service" | "asset" | "source";
                                    name: string;
                                } | {
                                    key: null;
                                    /** @enum {string} */
                                    kind: "unmapped";
                                    name: null;
                                };
                            }[];
                            subjects: {
                                /** @description Firing transitions inside the window */
                                enteredError: number;
                                fingerprints: string[];
                                /** @description Entered error 3 or more times in the window */
                                flapping: boolean;
                                /** @description The subject is in the change's silence scope */
                                inScope: boolean;
                                /** @description The subject by name (an unmapped alert: its subject label) */
                                label: string;
                                /** @description Already in error at window start */
                                preExisting: boolean;
                                /** @description The catalogue entity the alert is about; unmapped: none (recorded, never held) */
                                subject: {
                                    key: string;
                                    /** @enum {unknown} */
                                    kind: "service" | "asset" | "source";
                                    name: string;
                                } | {
                                    key: null;
                                    /** @enum {string} */
                                    kind: "unmapped";
                                    name: null;
                                };
                                transitions: components["schemas"]["AlertTransition"][];
                            }[];
                            /** @description More transitions fell in the window than one answer carries */
                            truncated: boolean;
                            window: {
                                end: string;
                                /** @description true while the change runs: end is now */
                                open: boolean;
                                start: string;
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where approval stands and what the caller may do */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Where approval stands, and what the caller may do about it */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Every decision so far, approvals and rejections */
                            approvals: {
                                at: string;
                                comment: string | null;
                                critical: boolean;
                                /** @enum {unknown} */
                                decision: "approved" | "rejected";
                                name: string;
                                userId: string;
                            }[];
                            approvers: {
                                critical: boolean;
                                name: string;
                                requester: boolean;
                                userId: string;
                            }[];
                            blockedOn: ("classification" | "critical_approver") | null;
                            blockedReason: string | null;
                            canApprove: boolean;
                            canClassify: boolean;
                            /** @description Each service component’s tier; null while it has none */
                            componentTiers: {
                                [key: string]: ("critical" | "important" | "standard") | null;
                            };
                            criticalApproved: boolean | null;
                            criticalApprovers: {
                                name: string;
                                requester: boolean;
                                userId: string;
                            }[];
                            criticality: ("critical" | "important" | "standard") | null;
                            criticalitySource: ("components" | "blast" | "none" | "pending") | null;
                            criticalRequired: boolean;
                            expiresAt: string | null;
                            gated: boolean;
                            isApprover: boolean;
                            isRequester: boolean;
                            mine: {
                                at: string;
                                comment: string | null;
                                /** @enum {unknown} */
                                decision: "approved" | "rejected";
                            } | null;
                            required: number | null;
                            /** @enum {unknown} */
                            status: "draft" | "scheduled" | "pending_mapping" | "pending_approval" | "approved" | "rejected" | "expired" | "active" | "evaluating" | "reported" | "cancelled";
                            unknownTierComponents: {
                                key: string;
                                kind: string;
                                name: string;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve (a listed approver, never the requester, once; people only). 409 {blockedOn: classification} while a service component has no tier */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        comment?: string;
                    };
                };
            };
            responses: {
                /** @description The change after the approval: approved (or started, with autoStart) once the quorum is reached */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Approvals so far, this one included */
                            approvals: number;
                            blockedOn: ("classification" | "critical_approver") | null;
                            criticalApproved: boolean | null;
                            criticality: ("critical" | "important" | "standard") | null;
                            criticalitySource: ("components" | "blast" | "none" | "pending") | null;
                            criticalRequired: boolean;
                            required: number | null;
                            /** @enum {unknown} */
                            status: "draft" | "scheduled" | "pending_mapping" | "pending_approval" | "approved" | "rejected" | "expired" | "active" | "evaluating" | "reported" | "cancelled";
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/before-state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The change’s before-state captures and the rule for it */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            captures: components["schemas"]["Capture"][];
                            digest: string | null;
                            flagWrites: {
                                at: string;
                                env: string;
                                flag: string;
                                from: unknown;
                                hash: string;
                                to: unknown;
                            }[];
                            /** @description The before-state rule for this change now */
                            need: {
                                reason: string;
                                required: boolean;
                                satisfied: boolean;
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Add a before-state capture before the change starts (previousVersion, previousCommit, or an artifact up to 256 KiB)
         * @description Append-only. The capture joins the approval digest: approvals given before it stop counting and an approved change waits for approval again. A change whose start waited for its before-state starts once one arrives.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Before-state */
                        beforeState?: {
                            /** @description A manifest or config file as text (kept byte for byte) or JSON (kept as canonical JSON): at most 256 KiB */
                            artifact?: string | {
                                [key: string]: unknown;
                            } | unknown[];
                            /** @description What the artifact is, such as deploy/checkout.yaml */
                            artifactName?: string;
                            /**
                             * @description complete: the whole state; partial: part of it; unknown
                             * @enum {unknown}
                             */
                            completeness?: "complete" | "partial" | "unknown";
                            /**
                             * @description present: it existed before; absent: the change creates it; unknown
                             * @enum {unknown}
                             */
                            prestateStatus?: "present" | "absent" | "unknown";
                        };
                        /**
                         * Previous commit
                         * @description The commit running before the change
                         */
                        previousCommit?: string;
                        /**
                         * Previous version
                         * @description The version running before the change
                         */
                        previousVersion?: string;
                    } | {
                        artifact?: string | {
                            [key: string]: unknown;
                        } | unknown[];
                        artifactName?: string;
                        /** @enum {unknown} */
                        completeness?: "complete" | "partial" | "unknown";
                        /** @enum {unknown} */
                        prestateStatus?: "present" | "absent" | "unknown";
                        /**
                         * Previous commit
                         * @description The commit running before the change
                         */
                        previousCommit?: string;
                        /**
                         * Previous version
                         * @description The version running before the change
                         */
                        previousVersion?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            captures: components["schemas"]["Capture"][];
                            change: components["schemas"]["Change"];
                            digest: string | null;
                            flagWrites: {
                                at: string;
                                env: string;
                                flag: string;
                                from: unknown;
                                hash: string;
                                to: unknown;
                            }[];
                            /** @description The before-state rule for this change now */
                            need: {
                                reason: string;
                                required: boolean;
                                satisfied: boolean;
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/before-state/{captureId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One capture, with its artifact */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    captureId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One before-state capture: append-only */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            artifact: string | null;
                            artifactName: string | null;
                            artifactType: ("json" | "text") | null;
                            capturedAt: string;
                            capturedBy: {
                                id: string | null;
                                kind: string;
                                name: string;
                            };
                            changeId: string;
                            /** @enum {unknown} */
                            completeness: "complete" | "partial" | "unknown";
                            id: string;
                            /** @enum {unknown} */
                            method: "previous_version" | "previous_commit" | "base_commit" | "artifact";
                            /** @enum {unknown} */
                            prestateStatus: "present" | "absent" | "unknown";
                            previousCommit: string | null;
                            previousVersion: string | null;
                            /** @description false when the stored evidence is not byte-exact (JSON kept canonical) or there was nothing before */
                            restorable: boolean;
                            sha256: string;
                            sizeBytes: number;
                            /** @description pipeline or person */
                            source: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/callback-test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a signed change.test to the change’s callbackUrl now (write access; people only) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            delivery: {
                                action: ("create" | "update" | "test") | null;
                                at: string;
                                attempts: number;
                                deliveryId: string;
                                error: string | null;
                                event: string;
                                httpStatus: number | null;
                                nextAttemptAt: string | null;
                                note: string | null;
                                /** @enum {unknown} */
                                state: "pending" | "retrying" | "delivered" | "failed";
                                /** @enum {unknown} */
                                via: "server";
                            } & {
                                attemptLog: {
                                    address: string | null;
                                    at: string;
                                    attempt: number;
                                    durationMs: number;
                                    error: string | null;
                                    httpStatus: number | null;
                                    /** @enum {unknown} */
                                    via: "server";
                                }[];
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a draft, scheduled, pending or approved change */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            change: components["schemas"]["Change"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/class": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reclassify a change that has not started (designated approvers, signed in): its tier and approval policy follow, collected approvals are voided */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {unknown} */
                        changeClass: "standard" | "normal" | "emergency";
                        /** @description Why, at least 5 characters */
                        note: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            change: components["schemas"]["Change"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/classify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Give tiers to service components without one (approvers; saved to the catalogue) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        components: {
                            key: string;
                            tier: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            change: components["schemas"]["Change"];
                            classified: {
                                key: string;
                                name: string;
                                /** @enum {unknown} */
                                tier: "critical" | "important" | "standard";
                                /**
                                 * @description Where the tier was saved: the catalogue entity, a manual service, or a new entity for a key never seen
                                 * @enum {unknown}
                                 */
                                where: "catalogue" | "manual" | "unseen";
                            }[];
                            /** @description Each service component’s tier; null while it has none */
                            componentTiers: {
                                [key: string]: ("critical" | "important" | "standard") | null;
                            };
                            criticality: ("critical" | "important" | "standard") | null;
                            criticalitySource: ("components" | "blast" | "none" | "pending") | null;
                            unknownTierComponents: {
                                key: string;
                                kind: string;
                                name: string;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Complete a running change (outcome defaults to success): it enters surveillance */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        notes?: string;
                        /** @enum {unknown} */
                        outcome?: "success" | "partial" | "rolled_back" | "unknown";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            change: components["schemas"]["Change"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/contracts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The contract of each service → service call edge of the change’s blast radius */
        get: {
            parameters: {
                query?: {
                    stale?: 0 | 1;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            changeId: string;
                            computedAt: string;
                            edges: {
                                callee: {
                                    key: string;
                                    name: string;
                                };
                                caller: {
                                    key: string;
                                    name: string;
                                };
                                note?: string;
                                routes: {
                                    calls: number;
                                    errorShare: number;
                                    /** @description The same route is also reached from outside the estate */
                                    externalIngress: boolean;
                                    lastSeen: string;
                                    method: string | null;
                                    p95Ms: number;
                                    probe: boolean;
                                    route: string;
                                    samplePath: string | null;
                                }[];
                            }[];
                            /** @example 3 of 4 call edges have a contract · 11 routes */
                            header: string;
                            routes: number;
                            total: number;
                            withContract: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every callback and ticket step of a change with each attempt (the Pipeline card) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description changeledger or cloudevents (CloudEvents 1.0, structured mode)
                             * @enum {unknown}
                             */
                            callbackFormat: "changeledger" | "cloudevents";
                            callbackUrl: string | null;
                            deliveries: (({
                                action: ("create" | "update" | "test") | null;
                                at: string;
                                attempts: number;
                                deliveryId: string;
                                error: string | null;
                                event: string;
                                httpStatus: number | null;
                                nextAttemptAt: string | null;
                                note: string | null;
                                /** @enum {unknown} */
                                state: "pending" | "retrying" | "delivered" | "failed";
                                /** @enum {unknown} */
                                via: "server";
                            } & {
                                attemptLog: {
                                    address: string | null;
                                    at: string;
                                    attempt: number;
                                    durationMs: number;
                                    error: string | null;
                                    httpStatus: number | null;
                                    /** @enum {unknown} */
                                    via: "server";
                                }[];
                            }) & {
                                /** @enum {unknown} */
                                channel: "callback" | "ticket";
                            })[];
                            ticket: {
                                id: string;
                                key: string;
                                /** @enum {unknown} */
                                kind: "jira" | "asana" | "servicenow" | "webhook";
                                url: string | null;
                            } | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/evaluate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Evaluate a reported change again: a new horizon, then a new report version */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Evidence horizon (minutes) */
                        evidenceMinutes?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            change: components["schemas"]["Change"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/extend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Push a running change’s window out (its owner, an owner or an admin): windowEnd later than the current end, at most 7 days after the start; the alert hold and its silences follow. 409 unless active */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * End (UTC)
                         * @description ISO-8601 date-time, later than the current end
                         */
                        windowEnd: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            change: components["schemas"]["Change"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/finish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Finish a running change: it enters surveillance */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        notes?: string;
                        /** @enum {unknown} */
                        outcome?: "success" | "partial" | "rolled_back" | "unknown";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            change: components["schemas"]["Change"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/mappings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Map the unresolved names of a pending_mapping change; with none left it moves on */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        confirmLarge?: boolean;
                        entries: {
                            createService?: {
                                name?: string;
                            };
                            input: string;
                            key?: string;
                            kind?: string;
                            remember?: boolean;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            change: components["schemas"]["Change"];
                            remaining: number;
                            status: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject with a reason: the first rejection rejects the change */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        reason: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {unknown} */
                            status: "draft" | "scheduled" | "pending_mapping" | "pending_approval" | "approved" | "rejected" | "expired" | "active" | "evaluating" | "reported" | "cancelled";
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/report.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A report version's RED figures and alerts as CSV, downloaded as change-<CHG id>-v<n>.csv */
        get: {
            parameters: {
                query?: {
                    version?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/csv */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/csv": string;
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/csv": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/csv": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/csv": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/report.html": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A report version as a standalone HTML page (inline CSS, inline SVG; served with CSP default-src 'none') */
        get: {
            parameters: {
                query?: {
                    version?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/html */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/report.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A report version of the change (the latest by default): the report, its verdict and AI assessment, and the evidence */
        get: {
            parameters: {
                query?: {
                    version?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One report version: the change as it is now, the report, and its evidence */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            change: components["schemas"]["Change"];
                            /** @description The evidence the verdict rests on, as stored with the version */
                            evidence: {
                                [key: string]: unknown;
                            };
                            report: {
                                /** @description The AI assessment beside the verdict; null on reports written before it */
                                ai: {
                                    [key: string]: unknown;
                                } | null;
                                aiImpact: ("outage" | "significant" | "minor" | "none" | "unknown") | null;
                                createdAt: string;
                                /** @enum {unknown} */
                                impact: "outage" | "significant" | "minor" | "none" | "unknown";
                                rule: string | null;
                                summary: string;
                                /** @description The rules' verdict {impact, rule, reason, matched, notCounted}; null on reports written before verdicts */
                                verdict: {
                                    [key: string]: unknown;
                                } | null;
                                version: number;
                            };
                            ticket: {
                                [key: string]: unknown;
                            } | null;
                            version: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/report.txt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A report version as plain text */
        get: {
            parameters: {
                query?: {
                    version?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/plain */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain": string;
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The post-implementation review of a change: whether it needs one and why, the latest version, how many versions */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Why, in words ("an emergency change", "it was rolled back", "its verdict was outage") */
                            reasons: string[];
                            /** @description An emergency, a rollback or an outage or significant verdict asks for a review once the change has run */
                            required: boolean;
                            /** @description The latest version; null before the first */
                            review: components["schemas"]["ChangeReview"] | null;
                            /** @description How many versions were written */
                            versions: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Write the post-implementation review of a change that has run (a new version; its owner, an owner or admin, or an approver, signed in). 409 before it ran */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Cause
                         * @default
                         */
                        cause?: string;
                        /** Follow-ups */
                        followUps?: {
                            /**
                             * Due
                             * @description YYYY-MM-DD
                             * @example 2026-04-30
                             */
                            due: string;
                            /**
                             * Owner
                             * @description Who does it: an e-mail address or a name
                             */
                            owner: string;
                            /** Follow-up */
                            text: string;
                        }[];
                        /**
                         * Summary
                         * @description What happened: at least 20 characters
                         */
                        summary: string;
                        /** What went well */
                        whatWentWell?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Why, in words ("an emergency change", "it was rolled back", "its verdict was outage") */
                            reasons: string[];
                            /** @description An emergency, a rollback or an outage or significant verdict asks for a review once the change has run */
                            required: boolean;
                            /** @description The latest version; null before the first */
                            review: components["schemas"]["ChangeReview"] | null;
                            /** @description How many versions were written */
                            versions: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/rollback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The change’s rollback path, its plan, and what became of it */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            completedAt: string | null;
                            decision: {
                                at: string;
                                /** @enum {unknown} */
                                decision: "execute" | "escalate" | "skip";
                                reason: string;
                            } | null;
                            path: {
                                /** @enum {unknown} */
                                generatedBy: "pipeline" | "person" | "changeledger";
                                /** @enum {unknown} */
                                kind: "revert_flag" | "redeploy_previous" | "manual";
                                /** @description The way back, numbered steps for people */
                                plan: string;
                                steps: string[];
                            };
                            releasedBy: {
                                at: string;
                                email: string | null;
                                id: string | null;
                                /** @enum {unknown} */
                                kind: "person" | "sweep";
                            }[] | null;
                            releases: {
                                at: string;
                                userId: string;
                            }[];
                            /** @description 2 at L3 (two distinct approvers), else 1 */
                            releasesNeeded: number;
                            requestedAt: string | null;
                            state: ("requested" | "rolled_back" | "failed") | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Release the rollback of a change that ran: a designated approver, signed in (an L3 change needs two distinct approvers)
         * @description A flag change is written back by changeledger at once (rolled_back). A deploy or manual rollback is requested: the pipeline gets change.rollback_requested with the before-state, and reports it done with POST …/rollback/complete.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        note?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            change: components["schemas"]["Change"];
                            /** @description false while an L3 rollback waits for its second approver */
                            executed: boolean;
                            reverted: {
                                env: string;
                                flag: string;
                                hash: string | null;
                                result: string;
                            }[];
                            rollback: components["schemas"]["Rollback"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/rollback/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Report a requested rollback done (rolled_back) or failed: the pipeline that ran it, or a person */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        notes?: string;
                        /** @enum {unknown} */
                        result: "rolled_back" | "failed";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            change: components["schemas"]["Change"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a scheduled or approved change now (409 while it waits for approval or mapping); a change already active is left as it is */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            change: components["schemas"]["Change"];
                            /** @description true when this call started the change; false when it was active already (started by an earlier call, its window or autoStart) and nothing changed */
                            started: boolean;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The compact status a pipeline polls */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description What a pipeline polls, and what every callback carries */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            approval: {
                                approvals: number | null;
                                approvedCommit: string | null;
                                blockedOn: ("classification" | "critical_approver") | null;
                                criticalApproved: boolean | null;
                                criticalRequired: boolean;
                                decidedAt: string | null;
                                digest: string | null;
                                expiresAt: string | null;
                                policy: string | null;
                                reason: string | null;
                                required: number | null;
                                /** @enum {unknown} */
                                state: "not_required" | "mapping" | "pending" | "approved" | "rejected" | "expired";
                                tier: ("L1" | "L2" | "L3") | null;
                            };
                            /** @description What was there before the change (GET …/before-state/{captureId} has an artifact’s bytes) */
                            beforeState: {
                                captures: {
                                    artifactName: string | null;
                                    completeness: string;
                                    id: string;
                                    method: string;
                                    previousCommit: string | null;
                                    previousVersion: string | null;
                                    restorable: boolean;
                                    sha256: string;
                                }[];
                                digest: string | null;
                            };
                            callback: {
                                action: ("create" | "update" | "test") | null;
                                at: string;
                                attempts: number;
                                deliveryId: string;
                                error: string | null;
                                event: string;
                                httpStatus: number | null;
                                nextAttemptAt: string | null;
                                note: string | null;
                                /** @enum {unknown} */
                                state: "pending" | "retrying" | "delivered" | "failed";
                                /** @enum {unknown} */
                                via: "server";
                            } | null;
                            /** @enum {unknown} */
                            changeClass: "standard" | "normal" | "emergency";
                            changeClassReason: string;
                            classification?: {
                                unknown: string[];
                                url: string;
                            };
                            criticality: ("critical" | "important" | "standard") | null;
                            criticalitySource: string | null;
                            deployment: {
                                autoStart: boolean;
                                finishedAt: string | null;
                                outcome: string | null;
                                startedAt: string | null;
                                windowEnd: string;
                                windowStart: string;
                            };
                            displayId: string;
                            id: string;
                            links: {
                                approve: string;
                                change: string;
                            };
                            mapping?: {
                                unresolved: string[];
                                url: string;
                            };
                            pipeline: {
                                [key: string]: string;
                            } | null;
                            /** @description requested: roll back now, then POST …/rollback/complete; the sweep’s decision when it made one */
                            rollback: {
                                completedAt: string | null;
                                decision: {
                                    at: string;
                                    /** @enum {unknown} */
                                    decision: "execute" | "escalate" | "skip";
                                    reason: string;
                                } | null;
                                requestedAt: string | null;
                                state: ("requested" | "rolled_back" | "failed") | null;
                            };
                            /** @enum {unknown} */
                            status: "draft" | "scheduled" | "pending_mapping" | "pending_approval" | "approved" | "rejected" | "expired" | "active" | "evaluating" | "reported" | "cancelled";
                            /** @description Why it was rejected, expired or was cancelled */
                            statusReason: string | null;
                            suppression: components["schemas"]["Suppression"];
                            surveillance: {
                                aiImpact: string | null;
                                evaluateAt: string | null;
                                impact: string | null;
                                minutes: number;
                                reportedAt: string | null;
                            };
                            ticket: {
                                id: string | null;
                                key: string | null;
                                kind: ("jira" | "asana" | "servicenow" | "webhook") | null;
                                steps: {
                                    action: ("create" | "update" | "test") | null;
                                    at: string;
                                    attempts: number;
                                    deliveryId: string;
                                    error: string | null;
                                    event: string;
                                    httpStatus: number | null;
                                    nextAttemptAt: string | null;
                                    note: string | null;
                                    /** @enum {unknown} */
                                    state: "pending" | "retrying" | "delivered" | "failed";
                                    /** @enum {unknown} */
                                    via: "server";
                                }[];
                                url: string | null;
                            } | null;
                            title: string;
                            /** @description The validation plan’s result once checked, 30 s or more after the finish (GET …/validation has each row) */
                            validation: {
                                checkedAt: string | null;
                                /** @description Items in the validation plan (0: none) */
                                items: number;
                                result: ("cleared" | "still_present" | "uncertain") | null;
                            };
                            windowBypassed: {
                                approvals: number;
                                at: string;
                                kind: string;
                                window: string;
                            } | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/{id}/validation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The validation plan and, once checked after the finish, one row per item and the result */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            checkedAt: string | null;
                            dueAt: string | null;
                            plan: {
                                /** @enum {unknown} */
                                check: "promql" | "http";
                                /** @enum {unknown} */
                                direction?: "up" | "down" | "both";
                                expected: {
                                    /** @enum {unknown} */
                                    op: "<" | "<=" | ">" | ">=" | "==" | "!=";
                                    value: number | string;
                                };
                                group?: string;
                                hops?: number;
                                id: string;
                                query?: string;
                                target: string;
                                url?: string;
                            }[] | null;
                            reason: string | null;
                            result: ("cleared" | "still_present" | "uncertain") | null;
                            rows: {
                                checkedAt: string;
                                detail: string;
                                itemId: string;
                                observed: string | null;
                                /** @enum {unknown} */
                                state: "pass" | "fail" | "not_observed";
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/preview-blast": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** What a registration would silence, and its criticality — computed, never stored nor trimmed (the editor’s live preview) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        components?: {
                            /** @example svc:checkout-api */
                            key?: string;
                            /** @enum {unknown} */
                            kind?: "service" | "instance" | "database" | "schema" | "vm" | "host" | "datastore" | "pod" | "node" | "device" | "external" | "integration" | "workload" | "volume";
                            /** @example checkout-api */
                            query?: string;
                        }[];
                        /** @default 1 */
                        hops?: 1 | 2;
                        /** @description Names or keys, one a line (resolved like {query}) */
                        lines?: string;
                        /** @description dedicated | all | none; null or omitted: the organisation default */
                        silenceInfra?: ("dedicated" | "all" | "none") | null;
                        title?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            blast: components["schemas"]["Blast"];
                            componentTiers: {
                                [key: string]: ("critical" | "important" | "standard") | null;
                            };
                            /** @description What a change silences (pods count per workload) and what it leaves loud */
                            counts: {
                                capped: number;
                                databases: number;
                                datastores: number;
                                devices: number;
                                externals: number;
                                hosts: number;
                                items: number;
                                nodes: number;
                                pods: number;
                                schemas: number;
                                services: number;
                                shared: number;
                                sources: number;
                                vms: number;
                                volumes: number;
                                workloads: number;
                            };
                            criticality: ("critical" | "important" | "standard") | null;
                            /** @enum {unknown} */
                            criticalitySource: "components" | "blast" | "none" | "pending";
                            /** @description 100 services or more: a save answers 409 without confirmLarge */
                            large: boolean;
                            match: {
                                matched: number;
                                unresolved: string[];
                            };
                            /** @description A save would answer 422 */
                            refused: string | null;
                            resolved: {
                                key: string;
                                kind: string;
                                /** @enum {unknown} */
                                match: "exact" | "alias" | "manual" | "key";
                                name: string;
                                query?: string;
                                seen: boolean;
                            }[];
                            /** @description The scope line tooltip: silenced infrastructure per kind */
                            scopeBreakdown: string;
                            /** @example Silence scope: 12 services · 2 databases · +54 infrastructure (3 held, 51 shared) */
                            scopeLine: string;
                            /** @enum {unknown} */
                            silenceInfra: "dedicated" | "all" | "none";
                            unknownTierComponents: {
                                key: string;
                                kind: string;
                                name: string;
                            }[];
                            /** @description A line that is not exactly one thing, with up to 10 candidates */
                            unresolved: {
                                candidates: {
                                    key: string;
                                    kind: string;
                                    name: string;
                                }[];
                                query: string;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/preview-contracts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The contract of each service → service call edge such a registration would cover: the routes of the callee this caller uses (health probes and routes not seen for 7 days left out unless asked) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        components?: {
                            /** @example svc:checkout-api */
                            key?: string;
                            /** @enum {unknown} */
                            kind?: "service" | "instance" | "database" | "schema" | "vm" | "host" | "datastore" | "pod" | "node" | "device" | "external" | "integration" | "workload" | "volume";
                            /** @example checkout-api */
                            query?: string;
                        }[];
                        /** @description The call edges of a preview already made: the components are then not walked again */
                        edges?: {
                            from: string;
                            to: string;
                        }[];
                        /** @default 1 */
                        hops?: 1 | 2;
                        includeProbes?: boolean;
                        includeStale?: boolean;
                        /** @description Names or keys, one a line (resolved like {query}) */
                        lines?: string;
                        /** @description dedicated | all | none; null or omitted: the organisation default */
                        silenceInfra?: ("dedicated" | "all" | "none") | null;
                        title?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            edges: {
                                callee: {
                                    key: string;
                                    name: string;
                                };
                                caller: {
                                    key: string;
                                    name: string;
                                };
                                note?: string;
                                routes: {
                                    calls: number;
                                    errorShare: number;
                                    /** @description The same route is also reached from outside the estate */
                                    externalIngress: boolean;
                                    lastSeen: string;
                                    method: string | null;
                                    p95Ms: number;
                                    probe: boolean;
                                    route: string;
                                    samplePath: string | null;
                                }[];
                            }[];
                            /** @example 3 of 4 call edges have a contract · 11 routes */
                            header: string;
                            routes: number;
                            total: number;
                            withContract: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Counts of the one change list over [since, until) (default: the last 7 days, at most 366): total, per source, per service, unauthorized, and denied attempts apart */
        get: {
            parameters: {
                query?: {
                    /** @description ISO-8601 time with a zone; counted from here, inclusive. Default: 7 days before until */
                    since?: string;
                    /** @description ISO-8601 time with a zone; counted up to here, exclusive. Default: now */
                    until?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description How many changes in the range, from where, on which services; denied attempts apart */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The 20 services with the most changes, most first, then by key; denied attempts excluded */
                            byService: {
                                /** @description Changes whose main service this is */
                                count: number;
                                /** @description The main service key; empty for changes linked to no service (unmapped) */
                                service: string;
                            }[];
                            /** @description Changes per source: changeledger (planned), flags, or a connection kind (github … webhook); denied attempts excluded */
                            bySource: {
                                [key: string]: number;
                            };
                            /** @description Denied attempts, counted apart from the changes */
                            denied: {
                                /** @description The 10 principal · account pairs with the most denied attempts, most first */
                                byPrincipal: {
                                    /** @description Where: the cloud account, else the Azure subscription, else the Kubernetes cluster; empty when the source named none */
                                    account: string;
                                    /** @description Denied attempts of this principal in this account */
                                    count: number;
                                    /** @description Who tried: the principal’s name as the source gave it */
                                    principal: string;
                                }[];
                                /** @description Denied attempts: writes the source refused (access attempts, not changes) */
                                total: number;
                            };
                            /** @description Start of the range counted (inclusive), UTC */
                            since: string;
                            /** @description Changes in the range: planned changes by window start, flag writes, observed changes. Never a denied attempt */
                            total: number;
                            /** @description Observed changes the reference rule flagged as unauthorized (denied attempts excluded) */
                            unauthorized: number;
                            /** @description End of the range counted (exclusive), UTC */
                            until: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organisation’s callbacks and ticket steps in one state (failed by default), newest first, each with its change: what needs attention */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description failed: given up; retrying: waiting for its next attempt */
                    state?: "failed" | "retrying";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deliveries: ({
                                action: ("create" | "update" | "test") | null;
                                at: string;
                                attempts: number;
                                deliveryId: string;
                                error: string | null;
                                event: string;
                                httpStatus: number | null;
                                nextAttemptAt: string | null;
                                note: string | null;
                                /** @enum {unknown} */
                                state: "pending" | "retrying" | "delivered" | "failed";
                                /** @enum {unknown} */
                                via: "server";
                            } & {
                                /** @description The change the delivery belongs to */
                                change: {
                                    displayId: string;
                                    id: string;
                                    title: string;
                                };
                                /** @enum {unknown} */
                                channel: "callback" | "ticket";
                            })[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Environments of the organisation */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                /** @enum {unknown} */
                                approvalPolicy: "none" | "high-risk" | "all";
                                approvalsNeeded: number;
                                key: string;
                                name: string;
                                position: number;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Add an environment; every flag gets an off state in it */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        key: string;
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {unknown} */
                            approvalPolicy: "none" | "high-risk" | "all";
                            approvalsNeeded: number;
                            key: string;
                            name: string;
                            position: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set an environment’s approval policy (owners and admins) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    key: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {unknown} */
                        approvalPolicy?: "none" | "high-risk" | "all";
                        approvalsNeeded?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {unknown} */
                            approvalPolicy: "none" | "high-risk" | "all";
                            approvalsNeeded: number;
                            key: string;
                            name: string;
                            position: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/evidence-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The verdict’s thresholds, the RED query templates and the AI switch (the defaults while none is saved) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            aiEnabled: boolean;
                            defaultThresholds: {
                                downMinutes: number;
                                errorRatioFactor: number;
                                errorRatioPoints: number;
                                flappingEntries: number;
                                latencyFloorMs: number;
                                latencyIncrease: number;
                                rateDrop: number;
                                rateFloor: number;
                            };
                            presets: {
                                classic: {
                                    /** @enum {unknown} */
                                    name: "otel" | "classic" | "custom";
                                    queries: {
                                        errorRatio: string;
                                        p95: string;
                                        rate: string;
                                    };
                                    serviceLabel: string;
                                };
                                otel: {
                                    /** @enum {unknown} */
                                    name: "otel" | "classic" | "custom";
                                    queries: {
                                        errorRatio: string;
                                        p95: string;
                                        rate: string;
                                    };
                                    serviceLabel: string;
                                };
                            };
                            redTemplates: {
                                /** @enum {unknown} */
                                name: "otel" | "classic" | "custom";
                                queries: {
                                    errorRatio: string;
                                    p95: string;
                                    rate: string;
                                };
                                serviceLabel: string;
                            };
                            redTemplatesStored: ({
                                /** @enum {unknown} */
                                preset: "otel" | "classic";
                            } | {
                                errorRatio: string;
                                p95: string;
                                rate: string;
                                serviceLabel: string;
                            }) | null;
                            thresholds: {
                                downMinutes: number;
                                errorRatioFactor: number;
                                errorRatioPoints: number;
                                flappingEntries: number;
                                latencyFloorMs: number;
                                latencyIncrease: number;
                                rateDrop: number;
                                rateFloor: number;
                            };
                            thresholdsAreDefault: boolean;
                            updatedAt: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Set thresholds, RED templates (null: the defaults) and, owners only, aiEnabled; audited settings.evidence_updated */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * AI assessment of change reports
                         * @description Owners only
                         */
                        aiEnabled?: boolean;
                        redTemplates?: unknown | null;
                        thresholds?: unknown | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            aiEnabled: boolean;
                            defaultThresholds: {
                                downMinutes: number;
                                errorRatioFactor: number;
                                errorRatioPoints: number;
                                flappingEntries: number;
                                latencyFloorMs: number;
                                latencyIncrease: number;
                                rateDrop: number;
                                rateFloor: number;
                            };
                            presets: {
                                classic: {
                                    /** @enum {unknown} */
                                    name: "otel" | "classic" | "custom";
                                    queries: {
                                        errorRatio: string;
                                        p95: string;
                                        rate: string;
                                    };
                                    serviceLabel: string;
                                };
                                otel: {
                                    /** @enum {unknown} */
                                    name: "otel" | "classic" | "custom";
                                    queries: {
                                        errorRatio: string;
                                        p95: string;
                                        rate: string;
                                    };
                                    serviceLabel: string;
                                };
                            };
                            redTemplates: {
                                /** @enum {unknown} */
                                name: "otel" | "classic" | "custom";
                                queries: {
                                    errorRatio: string;
                                    p95: string;
                                    rate: string;
                                };
                                serviceLabel: string;
                            };
                            redTemplatesStored: ({
                                /** @enum {unknown} */
                                preset: "otel" | "classic";
                            } | {
                                errorRatio: string;
                                p95: string;
                                rate: string;
                                serviceLabel: string;
                            }) | null;
                            thresholds: {
                                downMinutes: number;
                                errorRatioFactor: number;
                                errorRatioPoints: number;
                                flappingEntries: number;
                                latencyFloorMs: number;
                                latencyIncrease: number;
                                rateDrop: number;
                                rateFloor: number;
                            };
                            thresholdsAreDefault: boolean;
                            updatedAt: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/evidence-sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organisation’s evidence sources (credentials never answered: hasSecret) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sources: components["schemas"]["EvidenceSource"][];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Add an evidence source {kind, name, url, auth?, config?}; credentials sealed (audited evidence_source.created) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Auth */
                        auth?: {
                            /** @enum {string} */
                            kind: "none";
                        } | {
                            /** @enum {string} */
                            kind: "bearer";
                            /**
                             * Token
                             * @description Left out on an update: the stored token is kept
                             */
                            token?: string;
                        } | {
                            /** @enum {string} */
                            kind: "basic";
                            /**
                             * Password
                             * @description Left out on an update: the stored password is kept
                             */
                            password?: string;
                            /** User name */
                            username: string;
                        };
                        /**
                         * Settings
                         * @description loki: {serviceLabel, selector, errorFilter}; elasticsearch: {index, timeField, serviceField, levelField, messageField, errorLevels}; none for prometheus and otlp
                         */
                        config?: unknown;
                        /** Enabled */
                        enabled?: boolean;
                        /**
                         * Kind
                         * @description prometheus (metrics), loki or elasticsearch (Elasticsearch / OpenSearch logs), otlp (our own POST /v1/logs intake)
                         * @enum {unknown}
                         */
                        kind: "prometheus" | "loki" | "elasticsearch" | "otlp";
                        /** Name */
                        name: string;
                        url?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            source: components["schemas"]["EvidenceSource"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/evidence-sources/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One evidence source */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            source: components["schemas"]["EvidenceSource"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Change an evidence source; auth left out (or its token or password) keeps the stored credentials */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Auth */
                        auth?: {
                            /** @enum {string} */
                            kind: "none";
                        } | {
                            /** @enum {string} */
                            kind: "bearer";
                            /**
                             * Token
                             * @description Left out on an update: the stored token is kept
                             */
                            token?: string;
                        } | {
                            /** @enum {string} */
                            kind: "basic";
                            /**
                             * Password
                             * @description Left out on an update: the stored password is kept
                             */
                            password?: string;
                            /** User name */
                            username: string;
                        };
                        /**
                         * Settings
                         * @description loki: {serviceLabel, selector, errorFilter}; elasticsearch: {index, timeField, serviceField, levelField, messageField, errorLevels}; none for prometheus and otlp
                         */
                        config?: unknown;
                        /** Enabled */
                        enabled?: boolean;
                        /**
                         * Kind
                         * @description prometheus (metrics), loki or elasticsearch (Elasticsearch / OpenSearch logs), otlp (our own POST /v1/logs intake)
                         * @enum {unknown}
                         */
                        kind?: "prometheus" | "loki" | "elasticsearch" | "otlp";
                        /** Name */
                        name?: string;
                        url?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            source: components["schemas"]["EvidenceSource"];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        /** Remove an evidence source (audited evidence_source.deleted); stored reports keep their evidence */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/evidence-sources/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask the source what it is and whether it answers (Prometheus: buildinfo and the request-rate query); {ok, version?, message} in words, audited */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            ok: boolean;
                            version?: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Flags, optionally under a namespace (ops.payments.*) */
        get: {
            parameters: {
                query?: {
                    namespace?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                /** @description Approvals every change needs; 0 follows each environment’s policy */
                                approvalsNeeded: number;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                createdAt: string;
                                description: string;
                                key: string;
                                /** @description A value of the flag’s type */
                                offValue: unknown;
                                ownerService: string | null;
                                /** @enum {unknown} */
                                risk: "low" | "high";
                                states: {
                                    enabled: boolean;
                                    env: string;
                                    rollout: {
                                        /** @description Context attribute that buckets stably, e.g. targetingKey or userId */
                                        bucketBy: string;
                                        /** @description Share of contexts served the value */
                                        percentage: number;
                                    } | null;
                                    rules: {
                                        attribute: string;
                                        /** @enum {unknown} */
                                        op: "equals" | "not_equals" | "in" | "not_in" | "starts_with" | "ends_with" | "contains";
                                        /** @description A value of the flag’s type */
                                        value: unknown;
                                        values: string[];
                                    }[];
                                    /**
                                     * Format: date-time
                                     * @description UTC, ISO-8601 with Z
                                     */
                                    updatedAt: string;
                                    /** @description A value of the flag’s type */
                                    value: unknown;
                                    version: number;
                                }[];
                                tags: string[];
                                /** @enum {unknown} */
                                type: "boolean" | "string" | "number" | "json";
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a flag (off in every environment) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        approvalsNeeded?: number;
                        /** @description Which automation writes, and what set it off */
                        automation?: {
                            name: string;
                            trigger: string;
                        };
                        /** @description Turn off now, past any approval policy (incidents); needs a reason meeting the high-risk bar; recorded for review */
                        breakGlass?: boolean;
                        /** @description The planned change this write belongs to (chg_…): its rollback writes the flag back */
                        changeId?: string;
                        description?: string;
                        gitops?: {
                            commitSha: string;
                            deployRun: string | null;
                        };
                        /** @description Dotted lower-case words: ops.payments.new-processor */
                        key: string;
                        /** @description A value of the flag’s type */
                        offValue?: unknown;
                        ownerService?: string | null;
                        /** @description Required on high-risk flags: ≥ 10 characters, a ticket reference or a link */
                        reason?: string;
                        /** @enum {unknown} */
                        risk: "low" | "high";
                        /**
                         * @description Defaults to ui for a session, api for a token
                         * @enum {unknown}
                         */
                        source?: "ui" | "api" | "cli" | "gitops" | "automation";
                        tags?: string[];
                        /** @enum {unknown} */
                        type: "boolean" | "string" | "number" | "json";
                        /** @description A value of the flag’s type */
                        value?: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Approvals every change needs; 0 follows each environment’s policy */
                            approvalsNeeded: number;
                            /**
                             * Format: date-time
                             * @description UTC, ISO-8601 with Z
                             */
                            createdAt: string;
                            description: string;
                            key: string;
                            /** @description A value of the flag’s type */
                            offValue: unknown;
                            ownerService: string | null;
                            /** @enum {unknown} */
                            risk: "low" | "high";
                            states: {
                                enabled: boolean;
                                env: string;
                                rollout: {
                                    /** @description Context attribute that buckets stably, e.g. targetingKey or userId */
                                    bucketBy: string;
                                    /** @description Share of contexts served the value */
                                    percentage: number;
                                } | null;
                                rules: {
                                    attribute: string;
                                    /** @enum {unknown} */
                                    op: "equals" | "not_equals" | "in" | "not_in" | "starts_with" | "ends_with" | "contains";
                                    /** @description A value of the flag’s type */
                                    value: unknown;
                                    values: string[];
                                }[];
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                updatedAt: string;
                                /** @description A value of the flag’s type */
                                value: unknown;
                                version: number;
                            }[];
                            tags: string[];
                            /** @enum {unknown} */
                            type: "boolean" | "string" | "number" | "json";
                            /**
                             * Format: date-time
                             * @description UTC, ISO-8601 with Z
                             */
                            updatedAt: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flags/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One flag with its state in each environment */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Dotted lower-case words: ops.payments.new-processor */
                    key: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Approvals every change needs; 0 follows each environment’s policy */
                            approvalsNeeded: number;
                            /**
                             * Format: date-time
                             * @description UTC, ISO-8601 with Z
                             */
                            createdAt: string;
                            description: string;
                            key: string;
                            /** @description A value of the flag’s type */
                            offValue: unknown;
                            ownerService: string | null;
                            /** @enum {unknown} */
                            risk: "low" | "high";
                            states: {
                                enabled: boolean;
                                env: string;
                                rollout: {
                                    /** @description Context attribute that buckets stably, e.g. targetingKey or userId */
                                    bucketBy: string;
                                    /** @description Share of contexts served the value */
                                    percentage: number;
                                } | null;
                                rules: {
                                    attribute: string;
                                    /** @enum {unknown} */
                                    op: "equals" | "not_equals" | "in" | "not_in" | "starts_with" | "ends_with" | "contains";
                                    /** @description A value of the flag’s type */
                                    value: unknown;
                                    values: string[];
                                }[];
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                updatedAt: string;
                                /** @description A value of the flag’s type */
                                value: unknown;
                                version: number;
                            }[];
                            tags: string[];
                            /** @enum {unknown} */
                            type: "boolean" | "string" | "number" | "json";
                            /**
                             * Format: date-time
                             * @description UTC, ISO-8601 with Z
                             */
                            updatedAt: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Change a flag’s description, owner, risk, tags or approvals (recorded) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Dotted lower-case words: ops.payments.new-processor */
                    key: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        approvalsNeeded?: number;
                        /** @description Which automation writes, and what set it off */
                        automation?: {
                            name: string;
                            trigger: string;
                        };
                        /** @description Turn off now, past any approval policy (incidents); needs a reason meeting the high-risk bar; recorded for review */
                        breakGlass?: boolean;
                        /** @description The planned change this write belongs to (chg_…): its rollback writes the flag back */
                        changeId?: string;
                        description?: string;
                        gitops?: {
                            commitSha: string;
                            deployRun: string | null;
                        };
                        ownerService?: string | null;
                        /** @description Required on high-risk flags: ≥ 10 characters, a ticket reference or a link */
                        reason?: string;
                        /** @enum {unknown} */
                        risk?: "low" | "high";
                        /**
                         * @description Defaults to ui for a session, api for a token
                         * @enum {unknown}
                         */
                        source?: "ui" | "api" | "cli" | "gitops" | "automation";
                        tags?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Approvals every change needs; 0 follows each environment’s policy */
                            approvalsNeeded: number;
                            /**
                             * Format: date-time
                             * @description UTC, ISO-8601 with Z
                             */
                            createdAt: string;
                            description: string;
                            key: string;
                            /** @description A value of the flag’s type */
                            offValue: unknown;
                            ownerService: string | null;
                            /** @enum {unknown} */
                            risk: "low" | "high";
                            states: {
                                enabled: boolean;
                                env: string;
                                rollout: {
                                    /** @description Context attribute that buckets stably, e.g. targetingKey or userId */
                                    bucketBy: string;
                                    /** @description Share of contexts served the value */
                                    percentage: number;
                                } | null;
                                rules: {
                                    attribute: string;
                                    /** @enum {unknown} */
                                    op: "equals" | "not_equals" | "in" | "not_in" | "starts_with" | "ends_with" | "contains";
                                    /** @description A value of the flag’s type */
                                    value: unknown;
                                    values: string[];
                                }[];
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                updatedAt: string;
                                /** @description A value of the flag’s type */
                                value: unknown;
                                version: number;
                            }[];
                            tags: string[];
                            /** @enum {unknown} */
                            type: "boolean" | "string" | "number" | "json";
                            /**
                             * Format: date-time
                             * @description UTC, ISO-8601 with Z
                             */
                            updatedAt: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flags/{key}/environments/{env}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change a flag in one environment: toggle, value, rules or rollout. 200 with the record written in the same transaction, or 202 with a change request when approval is needed */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                    /** @description Dotted lower-case words: ops.payments.new-processor */
                    key: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Which automation writes, and what set it off */
                        automation?: {
                            name: string;
                            trigger: string;
                        };
                        /** @description Turn off now, past any approval policy (incidents); needs a reason meeting the high-risk bar; recorded for review */
                        breakGlass?: boolean;
                        /** @description The planned change this write belongs to (chg_…): its rollback writes the flag back */
                        changeId?: string;
                        enabled?: boolean;
                        gitops?: {
                            commitSha: string;
                            deployRun: string | null;
                        };
                        /** @description Required on high-risk flags: ≥ 10 characters, a ticket reference or a link */
                        reason?: string;
                        rollout?: {
                            /** @description Context attribute that buckets stably, e.g. targetingKey or userId */
                            bucketBy: string;
                            /** @description Share of contexts served the value */
                            percentage: number;
                        } | null;
                        rules?: {
                            attribute: string;
                            /** @enum {unknown} */
                            op: "equals" | "not_equals" | "in" | "not_in" | "starts_with" | "ends_with" | "contains";
                            /** @description A value of the flag’s type */
                            value: unknown;
                            values: string[];
                        }[];
                        /**
                         * @description Defaults to ui for a session, api for a token
                         * @enum {unknown}
                         */
                        source?: "ui" | "api" | "cli" | "gitops" | "automation";
                        /** @description A value of the flag’s type */
                        value?: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            env: string;
                            flag: string;
                            record: {
                                /** @description Display name of whoever changed it */
                                actor: string;
                                actorDetail: {
                                    automation: string | null;
                                    id: string | null;
                                    kind: string;
                                    name: string;
                                    trigger: string | null;
                                };
                                approvers: string[];
                                breakGlass: boolean;
                                /** @enum {unknown} */
                                change: "created" | "updated" | "unchanged" | "deleted";
                                /** @description The planned change the write belongs to */
                                changeId: string | null;
                                correlationId: string | null;
                                /** @description For a creation: what the flag was created as (type, risk, ownerService, tags, offValue, value, approvalsNeeded); else null */
                                definition: unknown;
                                env: string | null;
                                fields: string[];
                                flag: string;
                                /** @description The freeze a break-glass write passed (high-risk flags in production are held to freezes) */
                                freezeBypassed: {
                                    until: string;
                                    window: string;
                                } | null;
                                /** @description The value that changed, before: a toggle's boolean, a value, the moved slice of a rollout or rules; "(absent)" before a creation */
                                from: unknown;
                                gitops: {
                                    commitSha: string;
                                    deployRun: string | null;
                                } | null;
                                hash: string;
                                /** @description Why; "(no reason required)" where a low-risk flag was changed without one */
                                reason: string;
                                requestId: string | null;
                                /** @description A rollback’s write: the hash of the record it wrote back */
                                revertOf: string | null;
                                schemaVersion: number;
                                seq: number;
                                /** @enum {unknown} */
                                source: "ui" | "api" | "cli" | "gitops" | "automation";
                                /** @description The value after; false (off) for a creation */
                                to: unknown;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                ts: string;
                            };
                            /** @enum {unknown} */
                            result: "changed" | "unchanged";
                            state: {
                                enabled: boolean;
                                env: string;
                                rollout: {
                                    /** @description Context attribute that buckets stably, e.g. targetingKey or userId */
                                    bucketBy: string;
                                    /** @description Share of contexts served the value */
                                    percentage: number;
                                } | null;
                                rules: {
                                    attribute: string;
                                    /** @enum {unknown} */
                                    op: "equals" | "not_equals" | "in" | "not_in" | "starts_with" | "ends_with" | "contains";
                                    /** @description A value of the flag’s type */
                                    value: unknown;
                                    values: string[];
                                }[];
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                updatedAt: string;
                                /** @description A value of the flag’s type */
                                value: unknown;
                                version: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            changeRequest: {
                                approvals: {
                                    /**
                                     * Format: date-time
                                     * @description UTC, ISO-8601 with Z
                                     */
                                    at: string;
                                    user: {
                                        email: string;
                                        id: string;
                                    };
                                }[];
                                approvalsNeeded: number;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                createdAt: string;
                                decidedAt: string | null;
                                env: string;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                expiresAt: string;
                                flag: string;
                                id: string;
                                patch: {
                                    [key: string]: unknown;
                                };
                                proposer: {
                                    automation?: string | null;
                                    id: string | null;
                                    kind: string;
                                    name: string;
                                    trigger?: string | null;
                                };
                                reason: string;
                                recordSeq: number | null;
                                rejection: {
                                    by: string;
                                    comment: string;
                                } | null;
                                /** @enum {unknown} */
                                status: "proposed" | "applied" | "rejected" | "expired";
                            };
                            env: string;
                            flag: string;
                            /** @enum {string} */
                            result: "proposed";
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flags/{key}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every change record of one flag, newest first */
        get: {
            parameters: {
                query?: {
                    actor?: string;
                    cursor?: string;
                    env?: string;
                    limit?: number;
                    /** @description ops.payments.* or one key */
                    namespace?: string;
                    /** @description A duration back from now (1h, 7d) or an ISO-8601 time */
                    since?: string;
                    /** @description A duration back from now (1h, 7d) or an ISO-8601 time */
                    until?: string;
                };
                header?: never;
                path: {
                    /** @description Dotted lower-case words: ops.payments.new-processor */
                    key: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                /** @description Display name of whoever changed it */
                                actor: string;
                                actorDetail: {
                                    automation: string | null;
                                    id: string | null;
                                    kind: string;
                                    name: string;
                                    trigger: string | null;
                                };
                                approvers: string[];
                                breakGlass: boolean;
                                /** @enum {unknown} */
                                change: "created" | "updated" | "unchanged" | "deleted";
                                /** @description The planned change the write belongs to */
                                changeId: string | null;
                                correlationId: string | null;
                                /** @description For a creation: what the flag was created as (type, risk, ownerService, tags, offValue, value, approvalsNeeded); else null */
                                definition: unknown;
                                env: string | null;
                                fields: string[];
                                flag: string;
                                /** @description The freeze a break-glass write passed (high-risk flags in production are held to freezes) */
                                freezeBypassed: {
                                    until: string;
                                    window: string;
                                } | null;
                                /** @description The value that changed, before: a toggle's boolean, a value, the moved slice of a rollout or rules; "(absent)" before a creation */
                                from: unknown;
                                gitops: {
                                    commitSha: string;
                                    deployRun: string | null;
                                } | null;
                                hash: string;
                                /** @description Why; "(no reason required)" where a low-risk flag was changed without one */
                                reason: string;
                                requestId: string | null;
                                /** @description A rollback’s write: the hash of the record it wrote back */
                                revertOf: string | null;
                                schemaVersion: number;
                                seq: number;
                                /** @enum {unknown} */
                                source: "ui" | "api" | "cli" | "gitops" | "automation";
                                /** @description The value after; false (off) for a creation */
                                to: unknown;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                ts: string;
                            }[];
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flags/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Flag change records, newest first: by namespace, actor, environment, owning service and window */
        get: {
            parameters: {
                query?: {
                    actor?: string;
                    cursor?: string;
                    env?: string;
                    limit?: number;
                    /** @description ops.payments.* or one key */
                    namespace?: string;
                    /** @description Only flags this service owns: its catalogue key (svc:payments-api) or its name (payments-api) */
                    service?: string;
                    /** @description A duration back from now (1h, 7d) or an ISO-8601 time */
                    since?: string;
                    /** @description A duration back from now (1h, 7d) or an ISO-8601 time */
                    until?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                /** @description Display name of whoever changed it */
                                actor: string;
                                actorDetail: {
                                    automation: string | null;
                                    id: string | null;
                                    kind: string;
                                    name: string;
                                    trigger: string | null;
                                };
                                approvers: string[];
                                breakGlass: boolean;
                                /** @enum {unknown} */
                                change: "created" | "updated" | "unchanged" | "deleted";
                                /** @description The planned change the write belongs to */
                                changeId: string | null;
                                correlationId: string | null;
                                /** @description For a creation: what the flag was created as (type, risk, ownerService, tags, offValue, value, approvalsNeeded); else null */
                                definition: unknown;
                                env: string | null;
                                fields: string[];
                                flag: string;
                                /** @description The freeze a break-glass write passed (high-risk flags in production are held to freezes) */
                                freezeBypassed: {
                                    until: string;
                                    window: string;
                                } | null;
                                /** @description The value that changed, before: a toggle's boolean, a value, the moved slice of a rollout or rules; "(absent)" before a creation */
                                from: unknown;
                                gitops: {
                                    commitSha: string;
                                    deployRun: string | null;
                                } | null;
                                hash: string;
                                /** @description Why; "(no reason required)" where a low-risk flag was changed without one */
                                reason: string;
                                requestId: string | null;
                                /** @description A rollback’s write: the hash of the record it wrote back */
                                revertOf: string | null;
                                schemaVersion: number;
                                seq: number;
                                /** @enum {unknown} */
                                source: "ui" | "api" | "cli" | "gitops" | "automation";
                                /** @description The value after; false (off) for a creation */
                                to: unknown;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                ts: string;
                            }[];
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flags/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change many flags at once (a kill switch): one record per flag, one correlation id */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Which automation writes, and what set it off */
                        automation?: {
                            name: string;
                            trigger: string;
                        };
                        /** @description Turn off now, past any approval policy (incidents); needs a reason meeting the high-risk bar; recorded for review */
                        breakGlass?: boolean;
                        /** @description The planned change this write belongs to (chg_…): its rollback writes the flag back */
                        changeId?: string;
                        enabled?: boolean;
                        env: string;
                        gitops?: {
                            commitSha: string;
                            deployRun: string | null;
                        };
                        keys?: string[];
                        /** @description ops.payments.* for every flag under it */
                        namespace?: string;
                        /** @description Required on high-risk flags: ≥ 10 characters, a ticket reference or a link */
                        reason?: string;
                        rollout?: {
                            /** @description Context attribute that buckets stably, e.g. targetingKey or userId */
                            bucketBy: string;
                            /** @description Share of contexts served the value */
                            percentage: number;
                        } | null;
                        /**
                         * @description Defaults to ui for a session, api for a token
                         * @enum {unknown}
                         */
                        source?: "ui" | "api" | "cli" | "gitops" | "automation";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            correlationId: string;
                            results: ({
                                env: string;
                                flag: string;
                                record: {
                                    /** @description Display name of whoever changed it */
                                    actor: string;
                                    actorDetail: {
                                        automation: string | null;
                                        id: string | null;
                                        kind: string;
                                        name: string;
                                        trigger: string | null;
                                    };
                                    approvers: string[];
                                    breakGlass: boolean;
                                    /** @enum {unknown} */
                                    change: "created" | "updated" | "unchanged" | "deleted";
                                    /** @description The planned change the write belongs to */
                                    changeId: string | null;
                                    correlationId: string | null;
                                    /** @description For a creation: what the flag was created as (type, risk, ownerService, tags, offValue, value, approvalsNeeded); else null */
                                    definition: unknown;
                                    env: string | null;
                                    fields: string[];
                                    flag: string;
                                    /** @description The freeze a break-glass write passed (high-risk flags in production are held to freezes) */
                                    freezeBypassed: {
                                        until: string;
                                        window: string;
                                    } | null;
                                    /** @description The value that changed, before: a toggle's boolean, a value, the moved slice of a rollout or rules; "(absent)" before a creation */
                                    from: unknown;
                                    gitops: {
                                        commitSha: string;
                                        deployRun: string | null;
                                    } | null;
                                    hash: string;
                                    /** @description Why; "(no reason required)" where a low-risk flag was changed without one */
                                    reason: string;
                                    requestId: string | null;
                                    /** @description A rollback’s write: the hash of the record it wrote back */
                                    revertOf: string | null;
                                    schemaVersion: number;
                                    seq: number;
                                    /** @enum {unknown} */
                                    source: "ui" | "api" | "cli" | "gitops" | "automation";
                                    /** @description The value after; false (off) for a creation */
                                    to: unknown;
                                    /**
                                     * Format: date-time
                                     * @description UTC, ISO-8601 with Z
                                     */
                                    ts: string;
                                };
                                /** @enum {unknown} */
                                result: "changed" | "unchanged";
                                state: {
                                    enabled: boolean;
                                    env: string;
                                    rollout: {
                                        /** @description Context attribute that buckets stably, e.g. targetingKey or userId */
                                        bucketBy: string;
                                        /** @description Share of contexts served the value */
                                        percentage: number;
                                    } | null;
                                    rules: {
                                        attribute: string;
                                        /** @enum {unknown} */
                                        op: "equals" | "not_equals" | "in" | "not_in" | "starts_with" | "ends_with" | "contains";
                                        /** @description A value of the flag’s type */
                                        value: unknown;
                                        values: string[];
                                    }[];
                                    /**
                                     * Format: date-time
                                     * @description UTC, ISO-8601 with Z
                                     */
                                    updatedAt: string;
                                    /** @description A value of the flag’s type */
                                    value: unknown;
                                    version: number;
                                };
                            } | {
                                changeRequest: {
                                    approvals: {
                                        /**
                                         * Format: date-time
                                         * @description UTC, ISO-8601 with Z
                                         */
                                        at: string;
                                        user: {
                                            email: string;
                                            id: string;
                                        };
                                    }[];
                                    approvalsNeeded: number;
                                    /**
                                     * Format: date-time
                                     * @description UTC, ISO-8601 with Z
                                     */
                                    createdAt: string;
                                    decidedAt: string | null;
                                    env: string;
                                    /**
                                     * Format: date-time
                                     * @description UTC, ISO-8601 with Z
                                     */
                                    expiresAt: string;
                                    flag: string;
                                    id: string;
                                    patch: {
                                        [key: string]: unknown;
                                    };
                                    proposer: {
                                        automation?: string | null;
                                        id: string | null;
                                        kind: string;
                                        name: string;
                                        trigger?: string | null;
                                    };
                                    reason: string;
                                    recordSeq: number | null;
                                    rejection: {
                                        by: string;
                                        comment: string;
                                    } | null;
                                    /** @enum {unknown} */
                                    status: "proposed" | "applied" | "rejected" | "expired";
                                };
                                env: string;
                                flag: string;
                                /** @enum {string} */
                                result: "proposed";
                            })[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flags/recent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recent flag changes of the flags some services own (default: the last hour) */
        get: {
            parameters: {
                query: {
                    /** @description Comma-separated service names */
                    services: string;
                    since?: string;
                    until?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                /** @description Display name of whoever changed it */
                                actor: string;
                                actorDetail: {
                                    automation: string | null;
                                    id: string | null;
                                    kind: string;
                                    name: string;
                                    trigger: string | null;
                                };
                                approvers: string[];
                                breakGlass: boolean;
                                /** @enum {unknown} */
                                change: "created" | "updated" | "unchanged" | "deleted";
                                /** @description The planned change the write belongs to */
                                changeId: string | null;
                                correlationId: string | null;
                                /** @description For a creation: what the flag was created as (type, risk, ownerService, tags, offValue, value, approvalsNeeded); else null */
                                definition: unknown;
                                env: string | null;
                                fields: string[];
                                flag: string;
                                /** @description The freeze a break-glass write passed (high-risk flags in production are held to freezes) */
                                freezeBypassed: {
                                    until: string;
                                    window: string;
                                } | null;
                                /** @description The value that changed, before: a toggle's boolean, a value, the moved slice of a rollout or rules; "(absent)" before a creation */
                                from: unknown;
                                gitops: {
                                    commitSha: string;
                                    deployRun: string | null;
                                } | null;
                                hash: string;
                                /** @description Why; "(no reason required)" where a low-risk flag was changed without one */
                                reason: string;
                                requestId: string | null;
                                /** @description A rollback’s write: the hash of the record it wrote back */
                                revertOf: string | null;
                                schemaVersion: number;
                                seq: number;
                                /** @enum {unknown} */
                                source: "ui" | "api" | "cli" | "gitops" | "automation";
                                /** @description The value after; false (off) for a creation */
                                to: unknown;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                ts: string;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flags/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Flag change requests */
        get: {
            parameters: {
                query?: {
                    flag?: string;
                    status?: "proposed" | "applied" | "rejected" | "expired";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                approvals: {
                                    /**
                                     * Format: date-time
                                     * @description UTC, ISO-8601 with Z
                                     */
                                    at: string;
                                    user: {
                                        email: string;
                                        id: string;
                                    };
                                }[];
                                approvalsNeeded: number;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                createdAt: string;
                                decidedAt: string | null;
                                env: string;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                expiresAt: string;
                                flag: string;
                                id: string;
                                patch: {
                                    [key: string]: unknown;
                                };
                                proposer: {
                                    automation?: string | null;
                                    id: string | null;
                                    kind: string;
                                    name: string;
                                    trigger?: string | null;
                                };
                                reason: string;
                                recordSeq: number | null;
                                rejection: {
                                    by: string;
                                    comment: string;
                                } | null;
                                /** @enum {unknown} */
                                status: "proposed" | "applied" | "rejected" | "expired";
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flags/requests/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a change request (not your own); the last needed approval applies it */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        comment?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            changeRequest: {
                                approvals: {
                                    /**
                                     * Format: date-time
                                     * @description UTC, ISO-8601 with Z
                                     */
                                    at: string;
                                    user: {
                                        email: string;
                                        id: string;
                                    };
                                }[];
                                approvalsNeeded: number;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                createdAt: string;
                                decidedAt: string | null;
                                env: string;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                expiresAt: string;
                                flag: string;
                                id: string;
                                patch: {
                                    [key: string]: unknown;
                                };
                                proposer: {
                                    automation?: string | null;
                                    id: string | null;
                                    kind: string;
                                    name: string;
                                    trigger?: string | null;
                                };
                                reason: string;
                                recordSeq: number | null;
                                rejection: {
                                    by: string;
                                    comment: string;
                                } | null;
                                /** @enum {unknown} */
                                status: "proposed" | "applied" | "rejected" | "expired";
                            };
                            result?: {
                                env: string;
                                flag: string;
                                record: {
                                    /** @description Display name of whoever changed it */
                                    actor: string;
                                    actorDetail: {
                                        automation: string | null;
                                        id: string | null;
                                        kind: string;
                                        name: string;
                                        trigger: string | null;
                                    };
                                    approvers: string[];
                                    breakGlass: boolean;
                                    /** @enum {unknown} */
                                    change: "created" | "updated" | "unchanged" | "deleted";
                                    /** @description The planned change the write belongs to */
                                    changeId: string | null;
                                    correlationId: string | null;
                                    /** @description For a creation: what the flag was created as (type, risk, ownerService, tags, offValue, value, approvalsNeeded); else null */
                                    definition: unknown;
                                    env: string | null;
                                    fields: string[];
                                    flag: string;
                                    /** @description The freeze a break-glass write passed (high-risk flags in production are held to freezes) */
                                    freezeBypassed: {
                                        until: string;
                                        window: string;
                                    } | null;
                                    /** @description The value that changed, before: a toggle's boolean, a value, the moved slice of a rollout or rules; "(absent)" before a creation */
                                    from: unknown;
                                    gitops: {
                                        commitSha: string;
                                        deployRun: string | null;
                                    } | null;
                                    hash: string;
                                    /** @description Why; "(no reason required)" where a low-risk flag was changed without one */
                                    reason: string;
                                    requestId: string | null;
                                    /** @description A rollback’s write: the hash of the record it wrote back */
                                    revertOf: string | null;
                                    schemaVersion: number;
                                    seq: number;
                                    /** @enum {unknown} */
                                    source: "ui" | "api" | "cli" | "gitops" | "automation";
                                    /** @description The value after; false (off) for a creation */
                                    to: unknown;
                                    /**
                                     * Format: date-time
                                     * @description UTC, ISO-8601 with Z
                                     */
                                    ts: string;
                                };
                                /** @enum {unknown} */
                                result: "changed" | "unchanged";
                                state: {
                                    enabled: boolean;
                                    env: string;
                                    rollout: {
                                        /** @description Context attribute that buckets stably, e.g. targetingKey or userId */
                                        bucketBy: string;
                                        /** @description Share of contexts served the value */
                                        percentage: number;
                                    } | null;
                                    rules: {
                                        attribute: string;
                                        /** @enum {unknown} */
                                        op: "equals" | "not_equals" | "in" | "not_in" | "starts_with" | "ends_with" | "contains";
                                        /** @description A value of the flag’s type */
                                        value: unknown;
                                        values: string[];
                                    }[];
                                    /**
                                     * Format: date-time
                                     * @description UTC, ISO-8601 with Z
                                     */
                                    updatedAt: string;
                                    /** @description A value of the flag’s type */
                                    value: unknown;
                                    version: number;
                                };
                            } | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flags/requests/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject a change request */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        comment: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            changeRequest: {
                                approvals: {
                                    /**
                                     * Format: date-time
                                     * @description UTC, ISO-8601 with Z
                                     */
                                    at: string;
                                    user: {
                                        email: string;
                                        id: string;
                                    };
                                }[];
                                approvalsNeeded: number;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                createdAt: string;
                                decidedAt: string | null;
                                env: string;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                expiresAt: string;
                                flag: string;
                                id: string;
                                patch: {
                                    [key: string]: unknown;
                                };
                                proposer: {
                                    automation?: string | null;
                                    id: string | null;
                                    kind: string;
                                    name: string;
                                    trigger?: string | null;
                                };
                                reason: string;
                                recordSeq: number | null;
                                rejection: {
                                    by: string;
                                    comment: string;
                                } | null;
                                /** @enum {unknown} */
                                status: "proposed" | "applied" | "rejected" | "expired";
                            };
                            result?: {
                                env: string;
                                flag: string;
                                record: {
                                    /** @description Display name of whoever changed it */
                                    actor: string;
                                    actorDetail: {
                                        automation: string | null;
                                        id: string | null;
                                        kind: string;
                                        name: string;
                                        trigger: string | null;
                                    };
                                    approvers: string[];
                                    breakGlass: boolean;
                                    /** @enum {unknown} */
                                    change: "created" | "updated" | "unchanged" | "deleted";
                                    /** @description The planned change the write belongs to */
                                    changeId: string | null;
                                    correlationId: string | null;
                                    /** @description For a creation: what the flag was created as (type, risk, ownerService, tags, offValue, value, approvalsNeeded); else null */
                                    definition: unknown;
                                    env: string | null;
                                    fields: string[];
                                    flag: string;
                                    /** @description The freeze a break-glass write passed (high-risk flags in production are held to freezes) */
                                    freezeBypassed: {
                                        until: string;
                                        window: string;
                                    } | null;
                                    /** @description The value that changed, before: a toggle's boolean, a value, the moved slice of a rollout or rules; "(absent)" before a creation */
                                    from: unknown;
                                    gitops: {
                                        commitSha: string;
                                        deployRun: string | null;
                                    } | null;
                                    hash: string;
                                    /** @description Why; "(no reason required)" where a low-risk flag was changed without one */
                                    reason: string;
                                    requestId: string | null;
                                    /** @description A rollback’s write: the hash of the record it wrote back */
                                    revertOf: string | null;
                                    schemaVersion: number;
                                    seq: number;
                                    /** @enum {unknown} */
                                    source: "ui" | "api" | "cli" | "gitops" | "automation";
                                    /** @description The value after; false (off) for a creation */
                                    to: unknown;
                                    /**
                                     * Format: date-time
                                     * @description UTC, ISO-8601 with Z
                                     */
                                    ts: string;
                                };
                                /** @enum {unknown} */
                                result: "changed" | "unchanged";
                                state: {
                                    enabled: boolean;
                                    env: string;
                                    rollout: {
                                        /** @description Context attribute that buckets stably, e.g. targetingKey or userId */
                                        bucketBy: string;
                                        /** @description Share of contexts served the value */
                                        percentage: number;
                                    } | null;
                                    rules: {
                                        attribute: string;
                                        /** @enum {unknown} */
                                        op: "equals" | "not_equals" | "in" | "not_in" | "starts_with" | "ends_with" | "contains";
                                        /** @description A value of the flag’s type */
                                        value: unknown;
                                        values: string[];
                                    }[];
                                    /**
                                     * Format: date-time
                                     * @description UTC, ISO-8601 with Z
                                     */
                                    updatedAt: string;
                                    /** @description A value of the flag’s type */
                                    value: unknown;
                                    version: number;
                                };
                            } | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/hooks/{source}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** An incident opened: answer and post the flag changes of its services in the hour before (PagerDuty v3 webhook, or {title, services, startedAt}) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    source: "pagerduty" | "generic";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": unknown;
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {unknown} */
                            delivery: "queued" | "no channel configured" | "duplicate" | "ignored";
                            flagChanges: {
                                /** @description Display name of whoever changed it */
                                actor: string;
                                actorDetail: {
                                    automation: string | null;
                                    id: string | null;
                                    kind: string;
                                    name: string;
                                    trigger: string | null;
                                };
                                approvers: string[];
                                breakGlass: boolean;
                                /** @enum {unknown} */
                                change: "created" | "updated" | "unchanged" | "deleted";
                                /** @description The planned change the write belongs to */
                                changeId: string | null;
                                correlationId: string | null;
                                /** @description For a creation: what the flag was created as (type, risk, ownerService, tags, offValue, value, approvalsNeeded); else null */
                                definition: unknown;
                                env: string | null;
                                fields: string[];
                                flag: string;
                                /** @description The freeze a break-glass write passed (high-risk flags in production are held to freezes) */
                                freezeBypassed: {
                                    until: string;
                                    window: string;
                                } | null;
                                /** @description The value that changed, before: a toggle's boolean, a value, the moved slice of a rollout or rules; "(absent)" before a creation */
                                from: unknown;
                                gitops: {
                                    commitSha: string;
                                    deployRun: string | null;
                                } | null;
                                hash: string;
                                /** @description Why; "(no reason required)" where a low-risk flag was changed without one */
                                reason: string;
                                requestId: string | null;
                                /** @description A rollback’s write: the hash of the record it wrote back */
                                revertOf: string | null;
                                schemaVersion: number;
                                seq: number;
                                /** @enum {unknown} */
                                source: "ui" | "api" | "cli" | "gitops" | "automation";
                                /** @description The value after; false (off) for a creation */
                                to: unknown;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                ts: string;
                            }[];
                            incident: {
                                id: string;
                                services: string[];
                                startedAt: string;
                                title: string;
                                url: string | null;
                            } | null;
                            note?: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/itsm/jira": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A change ticket from Jira: stored, refreshed by a re-send; it vouches for writes only when it carries the ITSM webhook token
         * @description Authorization: Bearer <the organisation's ITSM webhook token>. Without it, ?org=<slug> names the organisation and the ticket is kept but never counts as a reference.
         */
        post: {
            parameters: {
                query?: {
                    org?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description A Jira issue webhook (jira:issue_created, jira:issue_updated) */
            requestBody: {
                content: {
                    "application/json": unknown;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description It arrived with the ITSM webhook token, so it can vouch for a write (while its state, window and items match) */
                            counts: boolean;
                            created: boolean;
                            refreshed: boolean;
                            ticket: {
                                approval: string | null;
                                assignmentGroup: string | null;
                                firstReceivedAt: string;
                                items: string[];
                                key: string;
                                link: string | null;
                                plannedEnd: string | null;
                                plannedStart: string | null;
                                receivedAt: string;
                                state: string | null;
                                /** @enum {unknown} */
                                system: "servicenow" | "jira";
                                title: string;
                                unverifiedReason: string | null;
                                updatedAt: string | null;
                                /** @description It arrived with the ITSM webhook token: only such a ticket vouches for a write */
                                verified: boolean;
                            };
                            why: string | null;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description It arrived with the ITSM webhook token, so it can vouch for a write (while its state, window and items match) */
                            counts: boolean;
                            created: boolean;
                            refreshed: boolean;
                            ticket: {
                                approval: string | null;
                                assignmentGroup: string | null;
                                firstReceivedAt: string;
                                items: string[];
                                key: string;
                                link: string | null;
                                plannedEnd: string | null;
                                plannedStart: string | null;
                                receivedAt: string;
                                state: string | null;
                                /** @enum {unknown} */
                                system: "servicenow" | "jira";
                                title: string;
                                unverifiedReason: string | null;
                                updatedAt: string | null;
                                /** @description It arrived with the ITSM webhook token: only such a ticket vouches for a write */
                                verified: boolean;
                            };
                            why: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/itsm/servicenow": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A change ticket from ServiceNow: stored, refreshed by a re-send; it vouches for writes only when it carries the ITSM webhook token
         * @description Authorization: Bearer <the organisation's ITSM webhook token>. Without it, ?org=<slug> names the organisation and the ticket is kept but never counts as a reference.
         */
        post: {
            parameters: {
                query?: {
                    org?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description A change_request record, flat or as the Table API's {result: {…}} */
            requestBody: {
                content: {
                    "application/json": unknown;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description It arrived with the ITSM webhook token, so it can vouch for a write (while its state, window and items match) */
                            counts: boolean;
                            created: boolean;
                            refreshed: boolean;
                            ticket: {
                                approval: string | null;
                                assignmentGroup: string | null;
                                firstReceivedAt: string;
                                items: string[];
                                key: string;
                                link: string | null;
                                plannedEnd: string | null;
                                plannedStart: string | null;
                                receivedAt: string;
                                state: string | null;
                                /** @enum {unknown} */
                                system: "servicenow" | "jira";
                                title: string;
                                unverifiedReason: string | null;
                                updatedAt: string | null;
                                /** @description It arrived with the ITSM webhook token: only such a ticket vouches for a write */
                                verified: boolean;
                            };
                            why: string | null;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description It arrived with the ITSM webhook token, so it can vouch for a write (while its state, window and items match) */
                            counts: boolean;
                            created: boolean;
                            refreshed: boolean;
                            ticket: {
                                approval: string | null;
                                assignmentGroup: string | null;
                                firstReceivedAt: string;
                                items: string[];
                                key: string;
                                link: string | null;
                                plannedEnd: string | null;
                                plannedStart: string | null;
                                receivedAt: string;
                                state: string | null;
                                /** @enum {unknown} */
                                system: "servicenow" | "jira";
                                title: string;
                                unverifiedReason: string | null;
                                updatedAt: string | null;
                                /** @description It arrived with the ITSM webhook token: only such a ticket vouches for a write */
                                verified: boolean;
                            };
                            why: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/itsm/tickets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The change tickets received from ITSM tools, newest first (200 at most) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tickets: {
                                approval: string | null;
                                assignmentGroup: string | null;
                                firstReceivedAt: string;
                                items: string[];
                                key: string;
                                link: string | null;
                                plannedEnd: string | null;
                                plannedStart: string | null;
                                receivedAt: string;
                                state: string | null;
                                /** @enum {unknown} */
                                system: "servicenow" | "jira";
                                title: string;
                                unverifiedReason: string | null;
                                updatedAt: string | null;
                                /** @description It arrived with the ITSM webhook token: only such a ticket vouches for a write */
                                verified: boolean;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change your display name (every page and e-mail names you by it); audited */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Name */
                        displayName: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            user: {
                                displayName: string;
                                email: string;
                                hasPassword: boolean;
                                id: string;
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set or change your password */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Current password */
                        currentPassword?: string;
                        /** New password */
                        newPassword: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/observed-changes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One observed change, with its own fields under detail (action, resource, location, params, serviceVia, changeRef …) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description A flag write, a flag change request or an observed change */
                            change: {
                                /** @description A planned change’s window start, a flag write’s time, an observed event’s time */
                                at: string;
                                authorized: boolean | null;
                                /** @description A denied attempt: the source refused the write */
                                denied: boolean;
                                /** @description The origin’s own fields: a flag write’s flag, env, from, to, reason; an observed row’s eventId, action, resource, location, params, serviceVia, errorCode, outcome, changeRef … */
                                detail: {
                                    [key: string]: unknown;
                                };
                                diff: string | null;
                                displayId: string;
                                id: string;
                                /** @enum {unknown} */
                                kind: "push" | "pr_merged" | "deploy" | "sync" | "release" | "tag" | "health" | "k8s_write" | "cloud_write" | "change" | "flag";
                                link: string | null;
                                /** @description The channel: ui, api, pipeline; a flag write’s source; an observed change’s event kind */
                                mode: string;
                                /** @enum {unknown} */
                                origin: "flag" | "observed";
                                /** @description Who made the change, whatever the source */
                                principal: {
                                    detail: {
                                        [key: string]: string;
                                    };
                                    id: string | null;
                                    /** @enum {unknown} */
                                    kind: "person" | "token" | "service" | "system" | "unknown";
                                    name: string;
                                };
                                /** @description The main service key; "" when none (unmapped) */
                                service: string;
                                services: string[];
                                /** @description changeledger, flags, or the connection kind */
                                source: string;
                                /**
                                 * @description recorded; a flag change request waiting for approval is pending_approval
                                 * @enum {unknown}
                                 */
                                status: "recorded" | "pending_approval";
                                title: string;
                            };
                            /** @description What the organisation’s connected sources cannot see: an empty list means nothing in what we can see */
                            neverCaptured: string[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/observed-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The pull interval, CI namespaces, service map and resource map (the defaults while none is saved) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ciNamespaces: string[];
                            pullIntervalSeconds: number;
                            relinked?: number | null;
                            resourceMap: {
                                [key: string]: string | string[];
                            };
                            serviceMap: {
                                [key: string]: string;
                            };
                            updatedAt: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Set any of them; a map edit relinks the last 48 hours (audited observed_settings.updated and observed.relinked); a PUT that changes nothing writes nothing */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * CI namespaces
                         * @description Kubernetes namespaces whose service accounts are CI (default flux-system, jenkins, gitlab-runner, tekton); argocd, kube-system, kube-public and kube-node-lease are refused
                         */
                        ciNamespaces?: unknown;
                        /**
                         * Pull interval
                         * @description Seconds between scheduled pulls (60 to 86,400); 0 turns them off; default 900
                         */
                        pullIntervalSeconds?: unknown;
                        /**
                         * Resource map
                         * @description {resource glob: service or [services]}: links only, at most 200 globs of 10 services
                         */
                        resourceMap?: unknown;
                        /**
                         * Service map
                         * @description {repository glob: service}
                         */
                        serviceMap?: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ciNamespaces: string[];
                            pullIntervalSeconds: number;
                            relinked?: number | null;
                            resourceMap: {
                                [key: string]: string | string[];
                            };
                            serviceMap: {
                                [key: string]: string;
                            };
                            updatedAt: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}/change-approvers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** The whole approver list {userIds, criticalUserIds?}: active members, at most 50; not below the quorum while approval is required */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        criticalUserIds?: string[];
                        userIds: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            approvers: {
                                critical: boolean;
                                email: string;
                                name: string;
                                userId: string;
                            }[];
                            criticalApprovers: {
                                name: string;
                                userId: string;
                            }[];
                            criticalWarning: string | null;
                            limits: {
                                [key: string]: {
                                    max: number;
                                    min?: number;
                                };
                            };
                            settings: {
                                allowPrivateCallbacks: boolean;
                                approvalExpiryMinutes: number;
                                /** @enum {unknown} */
                                approvalRequired: "none" | "api" | "all";
                                /** @enum {unknown} */
                                changeClassPolicy: "normal_by_default" | "standard_by_default";
                                completionRecipients: string[];
                                demoteOnRollback: boolean;
                                l1Approvals: number;
                                quorum: number;
                                /** @enum {unknown} */
                                requireBeforeState: "production" | "always" | "never";
                                rollbackSweepWindowHours: number;
                                /** @enum {unknown} */
                                silenceInfra: "dedicated" | "all" | "none";
                                startTimeoutMinutes: number;
                                surveillanceMinutes: number;
                                ticketing: ({
                                    hasSecret: boolean;
                                    /** @enum {unknown} */
                                    kind: "jira" | "asana" | "servicenow" | "webhook";
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                                /** @enum {unknown} */
                                ticketingKind: "none" | "jira" | "asana" | "servicenow" | "webhook";
                                /** @description the stored secret cannot be opened with this server’s data key: enter it again */
                                ticketingUnreadable: boolean;
                                updatedAt: string | null;
                            };
                            warning: string | null;
                            /** @description What the settings cannot do yet (too few approvers for the quorum, no critical approver), each with its field; a write that leaves one is still taken */
                            warnings: {
                                /** @enum {unknown} */
                                field: "quorum" | "criticalUserIds";
                                message: string;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}/change-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organisation’s change settings and approvers (owners and admins) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            approvers: {
                                critical: boolean;
                                email: string;
                                name: string;
                                userId: string;
                            }[];
                            criticalApprovers: {
                                name: string;
                                userId: string;
                            }[];
                            criticalWarning: string | null;
                            limits: {
                                [key: string]: {
                                    max: number;
                                    min?: number;
                                };
                            };
                            settings: {
                                allowPrivateCallbacks: boolean;
                                approvalExpiryMinutes: number;
                                /** @enum {unknown} */
                                approvalRequired: "none" | "api" | "all";
                                /** @enum {unknown} */
                                changeClassPolicy: "normal_by_default" | "standard_by_default";
                                completionRecipients: string[];
                                demoteOnRollback: boolean;
                                l1Approvals: number;
                                quorum: number;
                                /** @enum {unknown} */
                                requireBeforeState: "production" | "always" | "never";
                                rollbackSweepWindowHours: number;
                                /** @enum {unknown} */
                                silenceInfra: "dedicated" | "all" | "none";
                                startTimeoutMinutes: number;
                                surveillanceMinutes: number;
                                ticketing: ({
                                    hasSecret: boolean;
                                    /** @enum {unknown} */
                                    kind: "jira" | "asana" | "servicenow" | "webhook";
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                                /** @enum {unknown} */
                                ticketingKind: "none" | "jira" | "asana" | "servicenow" | "webhook";
                                /** @description the stored secret cannot be opened with this server’s data key: enter it again */
                                ticketingUnreadable: boolean;
                                updatedAt: string | null;
                            };
                            warning: string | null;
                            /** @description What the settings cannot do yet (too few approvers for the quorum, no critical approver), each with its field; a write that leaves one is still taken */
                            warnings: {
                                /** @enum {unknown} */
                                field: "quorum" | "criticalUserIds";
                                message: string;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Change some settings (left out: kept); audited */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        allowPrivateCallbacks?: boolean;
                        /** Approval expires after (minutes) */
                        approvalExpiryMinutes?: number;
                        /**
                         * @description none: never; api: changes registered with a token; all: every change
                         * @enum {unknown}
                         */
                        approvalRequired?: "none" | "api" | "all";
                        /**
                         * Change class policy
                         * @description normal_by_default: standard only when a change names a certified template that covers it; standard_by_default: whenever one covers it
                         * @enum {unknown}
                         */
                        changeClassPolicy?: "normal_by_default" | "standard_by_default";
                        /** Completion recipients */
                        completionRecipients?: string[];
                        /**
                         * Demote on rollback
                         * @description The first rollback of a change its template made standard withdraws the template’s certification
                         */
                        demoteOnRollback?: boolean;
                        /**
                         * L1 approvals
                         * @description Approvals an L1 (low-risk) change needs; 0 = none. L2 needs the quorum, L3 at least two distinct approvers
                         */
                        l1Approvals?: number;
                        /** Quorum */
                        quorum?: number;
                        /**
                         * Before-state rule
                         * @description Which changes cannot start without a before-state: production (a change naming a production environment), always, never
                         * @enum {unknown}
                         */
                        requireBeforeState?: "production" | "always" | "never";
                        /**
                         * Rollback sweep window (hours)
                         * @description How far back the automatic rollback sweep looks for failed changes: 1 – 168
                         */
                        rollbackSweepWindowHours?: number;
                        /** @enum {unknown} */
                        silenceInfra?: "dedicated" | "all" | "none";
                        /** Start within (minutes) */
                        startTimeoutMinutes?: number;
                        /** Surveillance (minutes) */
                        surveillanceMinutes?: number;
                        ticketing?: {
                            /**
                             * API token
                             * @description jira: blank or •••• keeps the stored one
                             */
                            apiToken?: string;
                            /** @description asana: default https://app.asana.com */
                            apiUrl?: string;
                            assignmentGroup?: string | null;
                            /**
                             * Base URL
                             * @description jira: https://acme.atlassian.net
                             */
                            baseUrl?: string;
                            /**
                             * Change type
                             * @enum {unknown}
                             */
                            changeType?: "normal" | "standard";
                            /** @description servicenow: close the change request when the report is in (default true) */
                            closeOnReport?: boolean;
                            /** @description asana: complete the task when the report is in (default true) */
                            completeOnReport?: boolean;
                            /**
                             * @description jira: cloud = e-mail + API token, REST v3; datacenter = personal access token, REST v2
                             * @enum {unknown}
                             */
                            deployment?: "cloud" | "datacenter";
                            /**
                             * E-mail
                             * @description jira cloud: the account the API token belongs to
                             */
                            email?: string;
                            /** @description ignored (what GET answers) */
                            hasSecret?: boolean;
                            /**
                             * Instance URL
                             * @description servicenow: https://acme.service-now.com
                             */
                            instanceUrl?: string;
                            /**
                             * Issue type
                             * @description jira: default Task
                             */
                            issueType?: string;
                            /** @enum {unknown} */
                            kind: "none" | "jira" | "asana" | "servicenow" | "webhook";
                            /** Labels */
                            labels?: string[];
                            password?: string;
                            /** Project gid */
                            projectGid?: string;
                            /** Project key */
                            projectKey?: string;
                            /**
                             * Signing secret
                             * @description webhook: at least 16 characters; signs every delivery
                             */
                            secret?: string;
                            /**
                             * Personal access token
                             * @description asana: a personal access token
                             */
                            token?: string;
                            /**
                             * URL
                             * @description webhook: where change.ticket.* is POSTed
                             */
                            url?: string;
                            username?: string;
                            /** Workspace gid */
                            workspaceGid?: string;
                        } | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            approvers: {
                                critical: boolean;
                                email: string;
                                name: string;
                                userId: string;
                            }[];
                            criticalApprovers: {
                                name: string;
                                userId: string;
                            }[];
                            criticalWarning: string | null;
                            limits: {
                                [key: string]: {
                                    max: number;
                                    min?: number;
                                };
                            };
                            settings: {
                                allowPrivateCallbacks: boolean;
                                approvalExpiryMinutes: number;
                                /** @enum {unknown} */
                                approvalRequired: "none" | "api" | "all";
                                /** @enum {unknown} */
                                changeClassPolicy: "normal_by_default" | "standard_by_default";
                                completionRecipients: string[];
                                demoteOnRollback: boolean;
                                l1Approvals: number;
                                quorum: number;
                                /** @enum {unknown} */
                                requireBeforeState: "production" | "always" | "never";
                                rollbackSweepWindowHours: number;
                                /** @enum {unknown} */
                                silenceInfra: "dedicated" | "all" | "none";
                                startTimeoutMinutes: number;
                                surveillanceMinutes: number;
                                ticketing: ({
                                    hasSecret: boolean;
                                    /** @enum {unknown} */
                                    kind: "jira" | "asana" | "servicenow" | "webhook";
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                                /** @enum {unknown} */
                                ticketingKind: "none" | "jira" | "asana" | "servicenow" | "webhook";
                                /** @description the stored secret cannot be opened with this server’s data key: enter it again */
                                ticketingUnreadable: boolean;
                                updatedAt: string | null;
                            };
                            warning: string | null;
                            /** @description What the settings cannot do yet (too few approvers for the quorum, no critical approver), each with its field; a write that leaves one is still taken */
                            warnings: {
                                /** @enum {unknown} */
                                field: "quorum" | "criticalUserIds";
                                message: string;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}/change-settings/ticketing-test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Probe the stored ticket destination, or a draft {ticketing, allowPrivateCallbacks} merged over it; nothing is saved (audited org_change.ticketing_test) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        allowPrivateCallbacks?: boolean;
                        ticketing?: {
                            /**
                             * API token
                             * @description jira: blank or •••• keeps the stored one
                             */
                            apiToken?: string;
                            /** @description asana: default https://app.asana.com */
                            apiUrl?: string;
                            assignmentGroup?: string | null;
                            /**
                             * Base URL
                             * @description jira: https://acme.atlassian.net
                             */
                            baseUrl?: string;
                            /**
                             * Change type
                             * @enum {unknown}
                             */
                            changeType?: "normal" | "standard";
                            /** @description servicenow: close the change request when the report is in (default true) */
                            closeOnReport?: boolean;
                            /** @description asana: complete the task when the report is in (default true) */
                            completeOnReport?: boolean;
                            /**
                             * @description jira: cloud = e-mail + API token, REST v3; datacenter = personal access token, REST v2
                             * @enum {unknown}
                             */
                            deployment?: "cloud" | "datacenter";
                            /**
                             * E-mail
                             * @description jira cloud: the account the API token belongs to
                             */
                            email?: string;
                            /** @description ignored (what GET answers) */
                            hasSecret?: boolean;
                            /**
                             * Instance URL
                             * @description servicenow: https://acme.service-now.com
                             */
                            instanceUrl?: string;
                            /**
                             * Issue type
                             * @description jira: default Task
                             */
                            issueType?: string;
                            /** @enum {unknown} */
                            kind: "none" | "jira" | "asana" | "servicenow" | "webhook";
                            /** Labels */
                            labels?: string[];
                            password?: string;
                            /** Project gid */
                            projectGid?: string;
                            /** Project key */
                            projectKey?: string;
                            /**
                             * Signing secret
                             * @description webhook: at least 16 characters; signs every delivery
                             */
                            secret?: string;
                            /**
                             * Personal access token
                             * @description asana: a personal access token
                             */
                            token?: string;
                            /**
                             * URL
                             * @description webhook: where change.ticket.* is POSTed
                             */
                            url?: string;
                            username?: string;
                            /** Workspace gid */
                            workspaceGid?: string;
                        } | null;
                    };
                };
            };
            responses: {
                /** @description One row per probe step */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {unknown} */
                            kind: "jira" | "asana" | "servicenow" | "webhook";
                            message: string;
                            ok: boolean;
                            steps: {
                                detail: string | null;
                                name: string;
                                ok: boolean;
                                status: number | null;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}/component-aliases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Remembered names (alias → {kind, key}) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                alias: string;
                                createdAt: string;
                                createdBy: string;
                                key: string;
                                kind: string;
                                lastUsedAt: string | null;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}/component-aliases/{alias}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Remember a name for an entity (owners and admins) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    alias: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        key: string;
                        kind: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            alias: string;
                            createdAt: string;
                            createdBy: string;
                            key: string;
                            kind: string;
                            lastUsedAt: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        /** Forget a name */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    alias: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ok: boolean;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}/itsm-webhook-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new ITSM webhook token, answered once (only its hash is kept); the previous one stops counting. Audited organization.itsm_webhook_token */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            mintedAt: string;
                            token: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}/manual-services": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Services added by hand (merged once discovery reports them) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                createdAt: string;
                                createdBy: string;
                                key: string;
                                merged: boolean;
                                mergedAt: string | null;
                                name: string;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create {name} → svc:<slug> (owners and admins) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            createdBy: string;
                            key: string;
                            merged: boolean;
                            mergedAt: string | null;
                            name: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}/manual-services/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a manual service */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    key: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ok: boolean;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The members of the organisation, with whether each has signed in (owners and admins) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            members: {
                                email: string;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                joinedAt: string;
                                /** @description When the live sign-in link expires */
                                linkExpiresAt: string | null;
                                /** @description The display name */
                                name: string;
                                /**
                                 * @description One of owner, admin, member
                                 * @enum {unknown}
                                 */
                                role: "owner" | "admin" | "member";
                                /** @description active: has signed in; invited: an unused sign-in link is live; link_expired: no live link (send a new one) */
                                status: "active" | "invited" | "link_expired";
                                userId: string;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Invite a person by e-mail with a role: a one-time sign-in link (24 hours), mailed when SMTP is set, else in this answer once; audited */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** E-mail */
                        email: string;
                        /** Name */
                        name?: string;
                        /**
                         * @description One of owner, admin, member
                         * @enum {unknown}
                         */
                        role: "owner" | "admin" | "member";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description mail: sent to the person (SMTP is set); shown: signInUrl below, this once */
                            delivery: "mail" | "shown";
                            /**
                             * Format: date-time
                             * @description UTC, ISO-8601 with Z
                             */
                            expiresAt: string;
                            member: {
                                email: string;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                joinedAt: string;
                                /** @description When the live sign-in link expires */
                                linkExpiresAt: string | null;
                                /** @description The display name */
                                name: string;
                                /**
                                 * @description One of owner, admin, member
                                 * @enum {unknown}
                                 */
                                role: "owner" | "admin" | "member";
                                /** @description active: has signed in; invited: an unused sign-in link is live; link_expired: no live link (send a new one) */
                                status: "active" | "invited" | "link_expired";
                                userId: string;
                            };
                            /** @description Only when delivery is shown: the one-time link, in no other answer and stored only as SHA-256 */
                            signInUrl?: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member: their sessions end, their tokens are revoked, their unused links expire (never the last owner); audited */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change a member’s role (admins cannot touch owners nor make one; the last owner keeps the role); audited */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description One of owner, admin, member
                         * @enum {unknown}
                         */
                        role: "owner" | "admin" | "member";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            member: {
                                email: string;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                joinedAt: string;
                                /** @description When the live sign-in link expires */
                                linkExpiresAt: string | null;
                                /** @description The display name */
                                name: string;
                                /**
                                 * @description One of owner, admin, member
                                 * @enum {unknown}
                                 */
                                role: "owner" | "admin" | "member";
                                /** @description active: has signed in; invited: an unused sign-in link is live; link_expired: no live link (send a new one) */
                                status: "active" | "invited" | "link_expired";
                                userId: string;
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/organizations/{id}/members/{userId}/sign-in-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new one-time sign-in link for a member who has not signed in yet; earlier unused links stop working; audited */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description mail: sent to the person (SMTP is set); shown: signInUrl below, this once */
                            delivery: "mail" | "shown";
                            /**
                             * Format: date-time
                             * @description UTC, ISO-8601 with Z
                             */
                            expiresAt: string;
                            member: {
                                email: string;
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                joinedAt: string;
                                /** @description When the live sign-in link expires */
                                linkExpiresAt: string | null;
                                /** @description The display name */
                                name: string;
                                /**
                                 * @description One of owner, admin, member
                                 * @enum {unknown}
                                 */
                                role: "owner" | "admin" | "member";
                                /** @description active: has signed in; invited: an unused sign-in link is live; link_expired: no live link (send a new one) */
                                status: "active" | "invited" | "link_expired";
                                userId: string;
                            };
                            /** @description Only when delivery is shown: the one-time link, in no other answer and stored only as SHA-256 */
                            signInUrl?: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipeline-listener": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where the pipeline listener (API tokens) listens */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Where the pipeline listener listens (http://host:port); null while it does not listen */
                            url: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/reviews/due": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organisation’s changes that need a post-implementation review and have none yet, oldest finish first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                changeId: string;
                                displayId: string;
                                /** @description When the review became due: the change’s finish */
                                dueSince: string;
                                finishedAt: string;
                                /** @description More than 3 days since the finish */
                                overdue: boolean;
                                reasons: string[];
                                title: string;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sdk-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SDK keys of the organisation */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                createdAt: string;
                                createdBy: string;
                                env: string;
                                id: string;
                                lastUsedAt: string | null;
                                name: string;
                                revokedAt: string | null;
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a read-only SDK key bound to one environment; the secret is shown once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        env: string;
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            key: {
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                createdAt: string;
                                createdBy: string;
                                env: string;
                                id: string;
                                lastUsedAt: string | null;
                                name: string;
                                revokedAt: string | null;
                            };
                            secret: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sdk-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an SDK key */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            key: {
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                createdAt: string;
                                createdBy: string;
                                env: string;
                                id: string;
                                lastUsedAt: string | null;
                                name: string;
                                revokedAt: string | null;
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who is signed in */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Send as header x-csrf-token on every POST, PUT, PATCH and DELETE */
                            csrfToken: string;
                            /**
                             * Format: date-time
                             * @description UTC, ISO-8601 with Z
                             */
                            expiresAt: string;
                            organization: {
                                id: string;
                                name: string;
                                slug: string;
                            };
                            /** @enum {unknown} */
                            role: "owner" | "admin" | "member";
                            user: {
                                displayName: string;
                                email: string;
                                hasPassword: boolean;
                                id: string;
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Sign in with e-mail and password */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** E-mail */
                        email: string;
                        /** Password */
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Send as header x-csrf-token on every POST, PUT, PATCH and DELETE */
                            csrfToken: string;
                            /**
                             * Format: date-time
                             * @description UTC, ISO-8601 with Z
                             */
                            expiresAt: string;
                            organization: {
                                id: string;
                                name: string;
                                slug: string;
                            };
                            /** @enum {unknown} */
                            role: "owner" | "admin" | "member";
                            user: {
                                displayName: string;
                                email: string;
                                hasPassword: boolean;
                                id: string;
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Sign out */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/session/link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with a one-time link */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Send as header x-csrf-token on every POST, PUT, PATCH and DELETE */
                            csrfToken: string;
                            /**
                             * Format: date-time
                             * @description UTC, ISO-8601 with Z
                             */
                            expiresAt: string;
                            organization: {
                                id: string;
                                name: string;
                                slug: string;
                            };
                            /** @enum {unknown} */
                            role: "owner" | "admin" | "member";
                            user: {
                                displayName: string;
                                email: string;
                                hasPassword: boolean;
                                id: string;
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/settings/catalogue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How long observed call edges and placements stay fresh */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            lastSweepAt: string | null;
                            staleAfterDays: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Set the days after which an observed link not seen again is stale (owners and admins) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        staleAfterDays: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            lastSweepAt: string | null;
                            staleAfterDays: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/settings/flags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organisation’s flag policy: the ticket reference pattern a high-risk reason may carry */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            isDefault: boolean;
                            ticketPattern: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Set the ticket reference pattern (a regular expression in RE2 syntax, run in linear time: no backreferences or lookaround; null for the default) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        ticketPattern: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            isDefault: boolean;
                            ticketPattern: string;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/settings/incidents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where incidents post */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            channelConfigured: boolean;
                            channelHost: string | null;
                            pagerdutySigning: boolean;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Set the channel (incoming webhook URL) and PagerDuty signing secret; both are stored sealed */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        channelUrl?: string | null;
                        pagerdutySecret?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            channelConfigured: boolean;
                            channelHost: string | null;
                            pagerdutySigning: boolean;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** API tokens (yours; all of the organisation for owners and admins) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                createdAt: string;
                                expiresAt: string | null;
                                /** @description The 8-character id inside the token: clt_<id>_<secret> */
                                id: string;
                                /** @description Written at most once a minute */
                                lastUsedAt: string | null;
                                name: string;
                                owner: {
                                    email: string;
                                    id: string;
                                };
                                revokedAt: string | null;
                                scopes: ("changes:read" | "changes:write" | "catalogue:read" | "catalogue:write" | "flags:read" | "flags:write" | "audit:read" | "alerts:write" | "alerts:read" | "logs:write")[];
                            }[];
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create an API token; the answer holds the secret once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Expires (days) */
                        expiresInDays?: number;
                        /** Name */
                        name: string;
                        /** Scopes */
                        scopes: ("changes:read" | "changes:write" | "catalogue:read" | "catalogue:write" | "flags:read" | "flags:write" | "audit:read" | "alerts:write" | "alerts:read" | "logs:write")[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The token itself, shown this once; only its SHA-256 is stored */
                            secret: string;
                            token: {
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                createdAt: string;
                                expiresAt: string | null;
                                /** @description The 8-character id inside the token: clt_<id>_<secret> */
                                id: string;
                                /** @description Written at most once a minute */
                                lastUsedAt: string | null;
                                name: string;
                                owner: {
                                    email: string;
                                    id: string;
                                };
                                revokedAt: string | null;
                                scopes: ("changes:read" | "changes:write" | "catalogue:read" | "catalogue:write" | "flags:read" | "flags:write" | "audit:read" | "alerts:write" | "alerts:read" | "logs:write")[];
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API token */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            token: {
                                /**
                                 * Format: date-time
                                 * @description UTC, ISO-8601 with Z
                                 */
                                createdAt: string;
                                expiresAt: string | null;
                                /** @description The 8-character id inside the token: clt_<id>_<secret> */
                                id: string;
                                /** @description Written at most once a minute */
                                lastUsedAt: string | null;
                                name: string;
                                owner: {
                                    email: string;
                                    id: string;
                                };
                                revokedAt: string | null;
                                scopes: ("changes:read" | "changes:write" | "catalogue:read" | "catalogue:write" | "flags:read" | "flags:write" | "audit:read" | "alerts:write" | "alerts:read" | "logs:write")[];
                            };
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/unmanaged-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The reference rule, authorized principals, ticket matching and the denied-attempt cases (the defaults while none is saved) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Globs over a principal's names: system:serviceaccount:ci:*, arn:aws:iam::*:role/deploy-* */
                            authorizedPrincipals: string[];
                            /** @description Denied attempts open or join a case per principal · account · UTC hour */
                            deniedAccessToSecops: boolean;
                            itsmChangeMatch: {
                                /** @description Assignment groups whose tickets count; none: any */
                                assignmentGroups?: string[];
                                /** @description One of the ticket's configuration items or services must name the write's service (default true) */
                                items?: boolean;
                                /** @description The Jira fields (customfield_…) that hold these */
                                jiraFields?: {
                                    assignmentGroup?: string;
                                    items?: string;
                                    plannedEnd?: string;
                                    plannedStart?: string;
                                };
                                /** @description Ticket states that count (case-blind); none: any state but a closed or cancelled one */
                                states?: string[];
                                /** @description The write's time must fall in the ticket's planned window (default true) */
                                window?: boolean;
                            };
                            itsmTokenMintedAt: string | null;
                            itsmTokenSet: boolean;
                            /** @description Every applied write from CloudTrail, the Azure activity log or the Kubernetes audit webhook needs a reference */
                            referenceRule: boolean;
                            updatedAt: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        /** Set any of them (owners and admins; only an owner switches the reference rule); audited unmanaged_settings.updated */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Authorized principals */
                        authorizedPrincipals?: unknown;
                        /** Denied attempts open a case */
                        deniedAccessToSecops?: unknown;
                        /** Ticket matching */
                        itsmChangeMatch?: unknown;
                        /**
                         * Reference rule
                         * @description true or false; owners only
                         */
                        referenceRule?: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Globs over a principal's names: system:serviceaccount:ci:*, arn:aws:iam::*:role/deploy-* */
                            authorizedPrincipals: string[];
                            /** @description Denied attempts open or join a case per principal · account · UTC hour */
                            deniedAccessToSecops: boolean;
                            itsmChangeMatch: {
                                /** @description Assignment groups whose tickets count; none: any */
                                assignmentGroups?: string[];
                                /** @description One of the ticket's configuration items or services must name the write's service (default true) */
                                items?: boolean;
                                /** @description The Jira fields (customfield_…) that hold these */
                                jiraFields?: {
                                    assignmentGroup?: string;
                                    items?: string;
                                    plannedEnd?: string;
                                    plannedStart?: string;
                                };
                                /** @description Ticket states that count (case-blind); none: any state but a closed or cancelled one */
                                states?: string[];
                                /** @description The write's time must fall in the ticket's planned window (default true) */
                                window?: boolean;
                            };
                            itsmTokenMintedAt: string | null;
                            itsmTokenSet: boolean;
                            /** @description Every applied write from CloudTrail, the Azure activity log or the Kubernetes audit webhook needs a reference */
                            referenceRule: boolean;
                            updatedAt: string | null;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/unmanaged-settings/dry-run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** With these settings (unsaved; the rule taken as on), how many of the last 7 days' audit-log writes would have been flagged, and what vouched for the rest. Writes nothing */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Authorized principals */
                        authorizedPrincipals?: unknown;
                        /** Denied attempts open a case */
                        deniedAccessToSecops?: unknown;
                        /** Ticket matching */
                        itsmChangeMatch?: unknown;
                        /**
                         * Reference rule
                         * @description true or false; owners only
                         */
                        referenceRule?: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authorized: number;
                            byReference: {
                                authorized_principal: number;
                                change_id: number;
                                change_window: number;
                                itsm_ticket: number;
                            };
                            days: number;
                            examples: {
                                at: string;
                                displayId: string;
                                id: string;
                                principal: string;
                                reason: string;
                                title: string;
                            }[];
                            flagged: number;
                            judged: number;
                            /** @description More writes than the dry run reads (20,000): the newest were judged */
                            truncated: boolean;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Alertmanager's API v2 alerts (what Prometheus sends to its alertmanagers): resolved once endsAt has passed
         * @description List changeledger under Prometheus's alerting.alertmanagers (api_version: v2, path_prefix: /) with a token with alerts:write.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description Alertmanager API v2 postable alerts, as Prometheus sends them */
            requestBody: {
                content: {
                    "application/json": ({
                        /** Annotations */
                        annotations?: {
                            [key: string]: string;
                        };
                        /**
                         * Ends at
                         * Format: date-time
                         */
                        endsAt?: string;
                        /** Generator URL */
                        generatorURL?: string;
                        /**
                         * Labels
                         * @description Label name → value
                         */
                        labels: {
                            [key: string]: string;
                        };
                        /**
                         * Starts at
                         * Format: date-time
                         */
                        startsAt?: string;
                    } & {
                        [key: string]: unknown;
                    })[];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Alerts whose subject is in a running change's scope */
                            held: number;
                            /** @description Alerts in the request (one per fingerprint) */
                            received: number;
                            /** @description Alerts that added nothing new (Alertmanager's repeat_interval) */
                            repeats: number;
                            /** @description New firing or resolved transitions recorded; 0 for a pure re-send */
                            transitions: number;
                            /** @description Alerts no rule of the label mapping names a catalogue entity for */
                            unmapped: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ofrep/v1/configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What this OFREP server supports */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ofrep/v1/evaluate/flags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Evaluate every flag for a context; ETag / If-None-Match answers 304 when nothing changed */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        context?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ofrep/v1/evaluate/flags/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Evaluate one flag for a context (OpenFeature Remote Evaluation Protocol) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    key: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        context?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changes/argocd/{sourceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Intake of argocd change events (observed changes); see docs/observed.md
         * @description Paste the connection's endpoint into the sender. Authentication is the sender's own (docs/observed.md, "argocd"). Bodies up to 5 MiB.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The connection's id (Settings → Change sources) */
                    sourceId: string;
                };
                cookie?: never;
            };
            /** @description The sender's own payload, as it sends it */
            requestBody: {
                content: {
                    "application/json": unknown;
                };
            };
            responses: {
                /** @description What this delivery became, counted; sent only after it is committed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            capped: number;
                            denied: number;
                            duplicate: number;
                            enriched: number;
                            ignored: number;
                            noise: number;
                            receipts: number;
                            recorded: number;
                            /** @description Bad items of a batch; the good ones were recorded */
                            rejected: {
                                field: string;
                                index: number;
                                message: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Events of a type that is not recorded (a ping, a star, a read) */
                            ignored: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changes/aws/{sourceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Intake of aws change events (observed changes); see docs/observed.md
         * @description Paste the connection's endpoint into the sender. Authentication is the sender's own (docs/observed.md, "aws"). Bodies up to 5 MiB.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The connection's id (Settings → Change sources) */
                    sourceId: string;
                };
                cookie?: never;
            };
            /** @description The sender's own payload, as it sends it */
            requestBody: {
                content: {
                    "application/json": unknown;
                };
            };
            responses: {
                /** @description What this delivery became, counted; sent only after it is committed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            capped: number;
                            denied: number;
                            duplicate: number;
                            enriched: number;
                            ignored: number;
                            noise: number;
                            receipts: number;
                            recorded: number;
                            /** @description Bad items of a batch; the good ones were recorded */
                            rejected: {
                                field: string;
                                index: number;
                                message: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Events of a type that is not recorded (a ping, a star, a read) */
                            ignored: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changes/azure/{sourceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Intake of azure change events (observed changes); see docs/observed.md
         * @description Paste the connection's endpoint into the sender. Authentication is the sender's own (docs/observed.md, "azure"). Bodies up to 5 MiB.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The connection's id (Settings → Change sources) */
                    sourceId: string;
                };
                cookie?: never;
            };
            /** @description The sender's own payload, as it sends it */
            requestBody: {
                content: {
                    "application/json": unknown;
                };
            };
            responses: {
                /** @description What this delivery became, counted; sent only after it is committed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            capped: number;
                            denied: number;
                            duplicate: number;
                            enriched: number;
                            ignored: number;
                            noise: number;
                            receipts: number;
                            recorded: number;
                            /** @description Bad items of a batch; the good ones were recorded */
                            rejected: {
                                field: string;
                                index: number;
                                message: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Events of a type that is not recorded (a ping, a star, a read) */
                            ignored: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changes/cloudevents/{sourceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Intake of cloudevents change events (observed changes); see docs/observed.md
         * @description Paste the connection's endpoint into the sender. Authentication is the sender's own (docs/observed.md, "cloudevents"). Bodies up to 5 MiB.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The connection's id (Settings → Change sources) */
                    sourceId: string;
                };
                cookie?: never;
            };
            /** @description The sender's own payload, as it sends it */
            requestBody: {
                content: {
                    "application/json": unknown;
                };
            };
            responses: {
                /** @description What this delivery became, counted; sent only after it is committed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            capped: number;
                            denied: number;
                            duplicate: number;
                            enriched: number;
                            ignored: number;
                            noise: number;
                            receipts: number;
                            recorded: number;
                            /** @description Bad items of a batch; the good ones were recorded */
                            rejected: {
                                field: string;
                                index: number;
                                message: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Events of a type that is not recorded (a ping, a star, a read) */
                            ignored: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changes/github/{sourceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Intake of github change events (observed changes); see docs/observed.md
         * @description Paste the connection's endpoint into the sender. Authentication is the sender's own (docs/observed.md, "github"). Bodies up to 5 MiB.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The connection's id (Settings → Change sources) */
                    sourceId: string;
                };
                cookie?: never;
            };
            /** @description The sender's own payload, as it sends it */
            requestBody: {
                content: {
                    "application/json": unknown;
                };
            };
            responses: {
                /** @description What this delivery became, counted; sent only after it is committed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            capped: number;
                            denied: number;
                            duplicate: number;
                            enriched: number;
                            ignored: number;
                            noise: number;
                            receipts: number;
                            recorded: number;
                            /** @description Bad items of a batch; the good ones were recorded */
                            rejected: {
                                field: string;
                                index: number;
                                message: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Events of a type that is not recorded (a ping, a star, a read) */
                            ignored: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changes/gitlab/{sourceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Intake of gitlab change events (observed changes); see docs/observed.md
         * @description Paste the connection's endpoint into the sender. Authentication is the sender's own (docs/observed.md, "gitlab"). Bodies up to 5 MiB.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The connection's id (Settings → Change sources) */
                    sourceId: string;
                };
                cookie?: never;
            };
            /** @description The sender's own payload, as it sends it */
            requestBody: {
                content: {
                    "application/json": unknown;
                };
            };
            responses: {
                /** @description What this delivery became, counted; sent only after it is committed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            capped: number;
                            denied: number;
                            duplicate: number;
                            enriched: number;
                            ignored: number;
                            noise: number;
                            receipts: number;
                            recorded: number;
                            /** @description Bad items of a batch; the good ones were recorded */
                            rejected: {
                                field: string;
                                index: number;
                                message: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Events of a type that is not recorded (a ping, a star, a read) */
                            ignored: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changes/kubernetes/{sourceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Intake of kubernetes change events (observed changes); see docs/observed.md
         * @description Paste the connection's endpoint into the sender. Authentication is the sender's own (docs/observed.md, "kubernetes"). Bodies up to 5 MiB.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The connection's id (Settings → Change sources) */
                    sourceId: string;
                };
                cookie?: never;
            };
            /** @description The sender's own payload, as it sends it */
            requestBody: {
                content: {
                    "application/json": unknown;
                };
            };
            responses: {
                /** @description What this delivery became, counted; sent only after it is committed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            capped: number;
                            denied: number;
                            duplicate: number;
                            enriched: number;
                            ignored: number;
                            noise: number;
                            receipts: number;
                            recorded: number;
                            /** @description Bad items of a batch; the good ones were recorded */
                            rejected: {
                                field: string;
                                index: number;
                                message: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Events of a type that is not recorded (a ping, a star, a read) */
                            ignored: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changes/webhook/{sourceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Intake of webhook change events (observed changes); see docs/observed.md
         * @description Paste the connection's endpoint into the sender. Authentication is the sender's own (docs/observed.md, "webhook"). Bodies up to 5 MiB.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The connection's id (Settings → Change sources) */
                    sourceId: string;
                };
                cookie?: never;
            };
            /** @description The sender's own payload, as it sends it */
            requestBody: {
                content: {
                    "application/json": unknown;
                };
            };
            responses: {
                /** @description What this delivery became, counted; sent only after it is committed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            capped: number;
                            denied: number;
                            duplicate: number;
                            enriched: number;
                            ignored: number;
                            noise: number;
                            receipts: number;
                            recorded: number;
                            /** @description Bad items of a batch; the good ones were recorded */
                            rejected: {
                                field: string;
                                index: number;
                                message: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Events of a type that is not recorded (a ping, a star, a read) */
                            ignored: number;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * OTLP/HTTP logs (ExportLogsServiceRequest, protobuf or JSON, gzip or not): stored for the logs part of change reports
         * @description Point an OpenTelemetry SDK's or collector's OTLP/HTTP logs exporter at the pipeline listener's /v1/logs with `Authorization: Bearer <token with logs:write>`. Bodies up to 4 MiB on the wire (gzip welcome). The service of a record is its resource's service.name; its time timeUnixNano, else observedTimeUnixNano, else when received. Records stamped more than 9 days ago or an hour ahead are refused in partialSuccess. Not audited: counted in /metrics (changeledger_logs_received_total, changeledger_logs_rejected_total).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description ExportLogsServiceRequest (opentelemetry-proto collector/logs/v1), protobuf or OTLP/JSON */
            requestBody: {
                content: {
                    "application/json": unknown;
                    "application/x-protobuf": unknown;
                };
            };
            responses: {
                /** @description ExportLogsServiceResponse: {} when every record was stored; partialSuccess when some were refused (too old to keep, or stamped too far ahead). A protobuf request gets it in protobuf. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            partialSuccess?: {
                                /** @description Why, in words */
                                errorMessage: string;
                                /** @description How many records were refused (int64 as a decimal string, as OTLP/JSON writes it) */
                                rejectedLogRecords: string;
                            };
                        };
                    };
                };
                /** @description A JSON request's refusal: {error} as every route answers, with google.rpc.Status's code and message; a protobuf request gets the Status in protobuf. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description google.rpc.Code (3: INVALID_ARGUMENT) */
                            code?: number;
                            error: string;
                            message?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description A JSON request's refusal: {error} as every route answers, with google.rpc.Status's code and message; a protobuf request gets the Status in protobuf. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description google.rpc.Code (3: INVALID_ARGUMENT) */
                            code?: number;
                            error: string;
                            message?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description A JSON request's refusal: {error} as every route answers, with google.rpc.Status's code and message; a protobuf request gets the Status in protobuf. */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description google.rpc.Code (3: INVALID_ARGUMENT) */
                            code?: number;
                            error: string;
                            message?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/change/enqueue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** PagerDuty-compatible change event (Events API v2 change events): routing_key is the connection's secret */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description {routing_key, payload{summary, timestamp, source, custom_details}, links} */
            requestBody: {
                content: {
                    "application/json": unknown;
                };
            };
            responses: {
                /** @description PagerDuty's documented answer to a change event (202 {status, message}), with our counts beside it */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            capped: number;
                            denied: number;
                            duplicate: number;
                            enriched: number;
                            ignored: number;
                            message: string;
                            noise: number;
                            receipts: number;
                            recorded: number;
                            /** @description Bad items of a batch; the good ones were recorded */
                            rejected: {
                                field: string;
                                index: number;
                                message: string;
                            }[];
                            /** @enum {string} */
                            status: "success";
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            field?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AiProvider: {
            createdAt: string;
            /** @description Where requests go */
            endpoint: string;
            /** @description A key is kept (never answered) */
            hasKey: boolean;
            /**
             * Kind
             * @description openai: an OpenAI-compatible chat-completions endpoint; anthropic: the Anthropic Messages API
             * @enum {unknown}
             */
            kind: "openai" | "anthropic";
            model: string;
            updatedAt: string;
            url: string;
        };
        Alert: {
            alertname: string;
            annotations: {
                [key: string]: string;
            };
            endsAt: string | null;
            fingerprint: string;
            firstSeen: string;
            generatorURL: string | null;
            /** @description The change whose hold holds it now */
            heldBy: {
                changeId: string;
                displayId: string;
                title: string;
            } | null;
            labels: {
                [key: string]: string;
            };
            lastSeen: string;
            source: string;
            startsAt: string;
            /** @enum {unknown} */
            state: "firing" | "resolved";
            /** @description The catalogue entity the alert is about; unmapped: none (recorded, never held) */
            subject: {
                key: string;
                /** @enum {unknown} */
                kind: "service" | "asset" | "source";
                name: string;
            } | {
                key: null;
                /** @enum {string} */
                kind: "unmapped";
                name: null;
            };
            /** @description <service> · <alertname> · <source> */
            subjectLabel: string;
        };
        AlertDestination: {
            createdAt: string;
            enabled: boolean;
            eventsUrl: string | null;
            hasSecret: boolean;
            host: string | null;
            id: string;
            /**
             * Kind
             * @enum {unknown}
             */
            kind: "webhook" | "email" | "slack" | "pagerduty";
            lastDelivery: {
                at: string;
                attempts: number;
                error: string | null;
                nextAttemptAt: string | null;
                ok: boolean;
                status: number | null;
            } | null;
            name: string;
            secretHint: string | null;
            to: string[] | null;
            updatedAt: string;
        };
        Alertmanager: {
            authHint: string | null;
            /** @enum {unknown} */
            authKind: "none" | "bearer" | "basic";
            createdAt: string;
            hasAuth: boolean;
            id: string;
            name: string;
            updatedAt: string;
            url: string;
        };
        AlertTransition: {
            at: string;
            fingerprint: string;
            heldBy: string | null;
            receivedAt: string;
            /** @enum {unknown} */
            state: "firing" | "resolved";
            /** @enum {unknown} */
            via: "webhook" | "api" | "silence";
        };
        /** @description A blast radius (changeledger/change-blast/1) in its full shape */
        Blast: {
            /** @description What a change silences (pods count per workload) and what it leaves loud */
            counts: {
                capped: number;
                databases: number;
                datastores: number;
                devices: number;
                externals: number;
                hosts: number;
                items: number;
                nodes: number;
                pods: number;
                schemas: number;
                services: number;
                shared: number;
                sources: number;
                vms: number;
                volumes: number;
                workloads: number;
            };
            derivedFromLive?: boolean;
            /** @description Call edges among the affected services */
            edges?: {
                from: string;
                to: string;
            }[];
            edgesDropped?: boolean;
            edgesFromLive?: boolean;
            format: string;
            hops: number;
            infra?: {
                capped?: boolean;
                depth: number;
                hop: number;
                key: string;
                kind: string;
                name: string;
                pods?: number;
                reason?: string[];
                shared: boolean;
                silenced: boolean;
            }[];
            infraFromLive?: boolean;
            large: boolean;
            /** @description Runs-on links among the cards */
            lineage: {
                from: string;
                /** @description A bridged link: the entity it passes that is no card (a database instance) */
                through?: string;
                to: string;
            }[];
            /** @enum {string} */
            mapInfra?: "live";
            /** @description The dependency map's cards */
            nodes: {
                details?: {
                    engine?: string;
                    instance?: {
                        key: string;
                        kind: string;
                        name: string;
                    };
                    pods?: number;
                    tier?: string;
                };
                hop: number;
                key: string;
                kind: string;
                name: string;
                /** @enum {unknown} */
                role: "component" | "caller" | "callee" | "both" | "infra";
                shared?: boolean;
                silenced: boolean;
            }[];
            notSilenced: {
                count: number;
                items: {
                    [key: string]: unknown;
                }[];
                /** @enum {unknown} */
                kind: "monitors" | "multi-service-source" | "external" | "unseen" | "shared-infra" | "capped" | "infra-off";
                name: string;
                why: string;
            }[];
            refused: string | null;
            scope: {
                assetKeys: string[];
                hvEntityKeys: string[];
                integrationIds: string[];
                serviceKeys: string[];
                sourceIds: string[];
            };
            services?: {
                hop: number;
                key: string;
                kind: string;
                name: string;
                reason?: string[];
                /** @enum {unknown} */
                side: "component" | "caller" | "callee" | "both";
            }[];
            /** @enum {unknown} */
            silenceInfra: "dedicated" | "all" | "none";
            warnings: string[];
        };
        /** @description One before-state capture: append-only */
        Capture: {
            artifact: string | null;
            artifactName: string | null;
            artifactType: ("json" | "text") | null;
            capturedAt: string;
            capturedBy: {
                id: string | null;
                kind: string;
                name: string;
            };
            changeId: string;
            /** @enum {unknown} */
            completeness: "complete" | "partial" | "unknown";
            id: string;
            /** @enum {unknown} */
            method: "previous_version" | "previous_commit" | "base_commit" | "artifact";
            /** @enum {unknown} */
            prestateStatus: "present" | "absent" | "unknown";
            previousCommit: string | null;
            previousVersion: string | null;
            /** @description false when the stored evidence is not byte-exact (JSON kept canonical) or there was nothing before */
            restorable: boolean;
            sha256: string;
            sizeBytes: number;
            /** @description pipeline or person */
            source: string;
        };
        Change: {
            aborted: boolean;
            aiImpact: string | null;
            approvalDigest: string | null;
            approvalExpiresAt: string | null;
            approvedDigest: string | null;
            autoStart: boolean;
            blastVersion: number;
            /**
             * @description How its callbacks are shaped (changeledger or cloudevents)
             * @enum {unknown}
             */
            callbackFormat: "changeledger" | "cloudevents";
            callbackUrl: string | null;
            captureDigest: string | null;
            /** @enum {unknown} */
            changeClass: "standard" | "normal" | "emergency";
            changeClassCause: ("template_withdrawn" | "template_edited" | "template_uncovered" | "template_demoted") | null;
            changeClassReason: string;
            /**
             * @description The rule that decided the class
             * @enum {unknown}
             */
            changeClassSource: "emergency" | "template" | "default" | "reclassified";
            components: {
                key: string;
                kind: string;
                match: string;
                name: string;
                query?: string;
                seen: boolean;
            }[];
            componentTiers: {
                [key: string]: ("critical" | "important" | "standard") | null;
            };
            createdAt: string;
            criticality: ("critical" | "important" | "standard") | null;
            criticalitySource: ("components" | "blast" | "none" | "pending") | null;
            decidedAt: string | null;
            description: string | null;
            displayId: string;
            emergency: {
                link: string;
                reason: string;
            } | null;
            endReason: string | null;
            evaluateAt: string | null;
            evidenceMinutes: number;
            finishedAt: string | null;
            gated: boolean;
            hops: number;
            id: string;
            impact: string | null;
            /** @enum {unknown} */
            kind: "deploy" | "config" | "infra" | "other";
            maxDurationMinutes: number | null;
            notes: string | null;
            outcome: ("success" | "partial" | "rolled_back" | "unknown") | null;
            outcomeBy: ("pipeline" | "person" | "window") | null;
            owner: {
                email: string;
                id: string;
                name: string;
            };
            pipeline: {
                baseCommit?: string;
                commit?: string;
                environment?: string;
                pipeline?: string;
                repo?: string;
                run?: string;
                runUrl?: string;
                version?: string;
            } | null;
            quorum: number | null;
            recipients: string[];
            rejectionReason: string | null;
            relativeWindow: boolean;
            releaseHeld: boolean;
            reportedAt: string | null;
            reportVersion: number;
            riskReason: string | null;
            riskTier: ("L1" | "L2" | "L3") | null;
            rollbackCompletedAt: string | null;
            rollbackDecision: {
                at: string;
                /** @enum {unknown} */
                decision: "execute" | "escalate" | "skip";
                reason: string;
            } | null;
            rollbackRequestedAt: string | null;
            rollbackState: ("requested" | "rolled_back" | "failed") | null;
            silenceInfra: ("dedicated" | "all" | "none") | null;
            startDeadline: string | null;
            startedAt: string | null;
            /** @enum {unknown} */
            status: "draft" | "scheduled" | "pending_mapping" | "pending_approval" | "approved" | "rejected" | "expired" | "active" | "evaluating" | "reported" | "cancelled";
            template: {
                id: string;
                version: number;
            } | null;
            ticket: {
                id: string;
                key: string;
                /** @enum {unknown} */
                kind: "jira" | "asana" | "servicenow" | "webhook";
                url: string | null;
            } | null;
            ticketUrl: string | null;
            title: string;
            unresolved: {
                candidates: {
                    key: string;
                    kind: string;
                    name: string;
                }[];
                query: string;
            }[];
            updatedAt: string;
            validationCheckedAt: string | null;
            validationPlan: {
                [key: string]: unknown;
            }[] | null;
            validationResult: ("cleared" | "still_present" | "uncertain") | null;
            viaProxyId: null;
            viaTokenId: string | null;
            windowBypassed: {
                approvals: number;
                at: string;
                kind: string;
                window: string;
            } | null;
            windowEnd: string;
            windowStart: string;
        };
        ChangeReport: {
            /** @description The AI assessment's tier, beside the verdict (null: none was made) */
            aiImpact: ("outage" | "significant" | "minor" | "none" | "unknown") | null;
            /** @description The evidence the verdict rests on */
            body: {
                [key: string]: unknown;
            };
            createdAt: string;
            /** @enum {unknown} */
            impact: "outage" | "significant" | "minor" | "none" | "unknown";
            outcome: ("success" | "partial" | "rolled_back" | "unknown") | null;
            /** @description The verdict rule that matched (null on old reports) */
            rule: string | null;
            summary: string;
            version: number;
        };
        ChangeReview: {
            author: {
                email: string;
                id: string;
                name: string;
            };
            cause: string;
            changeId: string;
            createdAt: string;
            followUps: {
                due: string;
                owner: string;
                text: string;
            }[];
            summary: string;
            version: number;
            whatWentWell: string;
        };
        ChangeSource: {
            config: {
                [key: string]: unknown;
            };
            counts: components["schemas"]["ChangeSourceCounts"];
            createdAt: string;
            /** @description The URL to paste into the sender (the pipeline listener and the path of this kind) */
            endpoint: string;
            hasCredential: boolean;
            id: string;
            /**
             * Kind
             * @description Which sender: github, gitlab, argocd, kubernetes (audit webhook), aws (CloudTrail via EventBridge), azure (Activity Log), pagerduty (change events), cloudevents, webhook (generic)
             * @enum {unknown}
             */
            kind: "github" | "gitlab" | "argocd" | "kubernetes" | "aws" | "azure" | "pagerduty" | "cloudevents" | "webhook";
            lastEventAt: string | null;
            lastPullAt: string | null;
            lastPullError: string | null;
            markers: {
                manual: {
                    note: string | null;
                    position: string;
                    updatedAt: string;
                } | null;
                scheduled: {
                    note: string | null;
                    position: string;
                    updatedAt: string;
                } | null;
            };
            name: string;
            notPulledBecause: string | null;
            orgId: string;
            pullable: boolean;
            pullEnabled: boolean;
            updatedAt: string;
        };
        ChangeSourceCounts: {
            capped: number;
            denied: number;
            duplicate: number;
            enriched: number;
            ignored: number;
            noise: number;
            receipts: number;
            recorded: number;
            rejected: number;
        };
        ChangeTemplate: {
            /** @description Who drafted this version */
            author: {
                email: string;
                id: string;
            };
            certifiedAt: string | null;
            certifiedBy: {
                email: string;
                id: string;
            } | null;
            certifiedVersion: number | null;
            createdAt: string;
            demotedAt: string | null;
            demotedByChange: string | null;
            description: string;
            environments: string[];
            hops: number;
            id: string;
            kind: string;
            maxBlastServices: number;
            name: string;
            pipelines: string[];
            repos: string[];
            services: string[];
            /**
             * @description draft until a different owner or approver certifies it; an edit makes it a draft again
             * @enum {unknown}
             */
            state: "draft" | "certified" | "withdrawn";
            updatedAt: string;
            version: number;
            withdrawnReason: string | null;
        };
        ChangeWindow: {
            createdAt: string;
            description: string | null;
            feed: string | null;
            id: string;
            /** @enum {unknown} */
            kind: "change" | "freeze";
            name: string;
            /** @description A recurring rule with a duration in a time zone {type: rrule, rrule, start, durationMinutes, timeZone, exdates?}, or a one-off {type: once, start, end} (ISO instants) */
            schedule: {
                /** @description 1 – 10,080 */
                durationMinutes: number;
                /** @description Local starts of occurrences to skip */
                exdates?: string[];
                /** @description An RFC 5545 RRULE value, e.g. FREQ=WEEKLY;BYDAY=SA,SU */
                rrule: string;
                /** @description The first occurrence, local time YYYY-MM-DDTHH:MM in timeZone */
                start: string;
                /** @description IANA, e.g. Europe/Berlin */
                timeZone: string;
                /** @enum {string} */
                type: "rrule";
            } | {
                end: string;
                start: string;
                /** @enum {string} */
                type: "once";
            };
            /** @description Which changes the window applies to: {type: all}, {type: services, services: [keys or globs]}, {type: environments, environments: [...]}, or {type: criticality, atLeast} */
            scope: {
                /** @enum {string} */
                type: "all";
            } | {
                services: string[];
                /** @enum {string} */
                type: "services";
            } | {
                environments: string[];
                /** @enum {string} */
                type: "environments";
            } | {
                /** @enum {unknown} */
                atLeast: "standard" | "important" | "critical";
                /** @enum {string} */
                type: "criticality";
            };
            sourceUid: string | null;
            updatedAt: string;
        };
        /** @description Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts). */
        Error: {
            error: string;
            field?: string;
        } & {
            [key: string]: unknown;
        };
        EvidenceSource: {
            authHint: string | null;
            /** @enum {unknown} */
            authKind: "none" | "bearer" | "basic";
            config: {
                [key: string]: unknown;
            };
            createdAt: string;
            enabled: boolean;
            hasSecret: boolean;
            id: string;
            /**
             * Kind
             * @description prometheus (metrics), loki or elasticsearch (Elasticsearch / OpenSearch logs), otlp (our own POST /v1/logs intake)
             * @enum {unknown}
             */
            kind: "prometheus" | "loki" | "elasticsearch" | "otlp";
            name: string;
            updatedAt: string;
            url: string | null;
        };
        RegisteredApproval: {
            /** @description Approvers other than the requester */
            approvers: number;
            criticalApprovers: number;
            criticality: ("critical" | "important" | "standard") | null;
            criticalitySource: ("components" | "blast" | "none" | "pending") | null;
            criticalRequired: boolean;
            expiresAt: string | null;
            required: number;
            unknownTierComponents: {
                key: string;
                kind: string;
                name: string;
            }[];
            /** @description Why it may wait until it expires (too few approvers, no critical approver) */
            warning?: string;
        };
        Rollback: {
            completedAt: string | null;
            decision: {
                at: string;
                /** @enum {unknown} */
                decision: "execute" | "escalate" | "skip";
                reason: string;
            } | null;
            path: {
                /** @enum {unknown} */
                generatedBy: "pipeline" | "person" | "changeledger";
                /** @enum {unknown} */
                kind: "revert_flag" | "redeploy_previous" | "manual";
                /** @description The way back, numbered steps for people */
                plan: string;
                steps: string[];
            };
            releasedBy: {
                at: string;
                email: string | null;
                id: string | null;
                /** @enum {unknown} */
                kind: "person" | "sweep";
            }[] | null;
            releases: {
                at: string;
                userId: string;
            }[];
            /** @description 2 at L3 (two distinct approvers), else 1 */
            releasesNeeded: number;
            requestedAt: string | null;
            state: ("requested" | "rolled_back" | "failed") | null;
        };
        /** @description The live hold on the alerts of the change’s blast radius */
        Suppression: {
            /** @description Alerts held so far */
            held: number;
            mode: ("relay" | "silence") | null;
            /** @description "hold not in place: <reason>" while a silence cannot be set; null when the hold is where it should be */
            problem: string | null;
            /** @description Held alerts that recovered before the release (not re-sent) */
            recovered: number;
            /** @description Held alerts re-sent at the release (still failing) */
            resent: number;
            /** @description Silence mode: each silence on each Alertmanager (one per label name) */
            silences: {
                alertmanager: string;
                id: string | null;
                /** @enum {unknown} */
                state: "pending" | "active" | "expired" | "failed";
            }[];
            since: string | null;
            /**
             * @description none: the change never ran; active while it runs; releasing from its finish until the release (5 min later); released after
             * @enum {unknown}
             */
            state: "none" | "active" | "releasing" | "released";
            until: string | null;
        };
        WindowConflict: {
            /** @enum {unknown} */
            conflict: "freeze_overlaps" | "outside_change_windows";
            reason: string;
            window: {
                end: string;
                id: string;
                /** @enum {unknown} */
                kind: "change" | "freeze";
                name: string;
                start: string;
            } | null;
        };
        WindowVerdict: {
            allowed: boolean;
            nextOpening: string | null;
            reason: string;
            window: {
                end: string;
                id: string;
                /** @enum {unknown} */
                kind: "change" | "freeze";
                name: string;
                start: string;
            } | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
