DROP TABLE live_log;
