// splices, digraphs, pasting and a macro of a flagged name
int a; ate\
xit(f);
get\  
env("X");
%:define getenv mine
#define CAT(a, b) a##b
#  include </dev/zero>
if (close( 3 )) ::std :: thread t(work);
