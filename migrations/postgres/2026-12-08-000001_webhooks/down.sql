DROP TABLE deliveries;
DROP TABLE webhooks;
