-- Foresight (R8.20): look at the draw pile and put it in any order.
local PROMPT = "Foresight: which card goes next, counting from the top?"

function play(ctx)
  local draw = ctx:pile("draw")
  if #draw < 2 then
    ctx:log("Foresight: fewer than two cards to put in order")
    return
  end
  -- A pile may hold copies of a card (R1.6); ask_order offers each distinct card once.
  local order = ctx:ask_order(PROMPT, draw)
  ctx:set_draw_order(order)
end
