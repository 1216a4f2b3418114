#include "dag_codecs.h"
void dag_codecs_placeholder(void) {}
