void dag_codecs_placeholder(void);
