-- First blood: the first capture of the game crowns the capturer. A deck rule:
-- its effect is in force from the deal, and its handlers are its whole script.

-- Every move is remembered, so that a capture (which names where its capturer
-- started, event.by) finds where the capturer ended.
function on_moved(ctx, event)
  ctx:set_effect_data{ from = event.from, to = event.to }
end

function on_captured(ctx, event, effect)
  local landed = effect.data.from == event.by and effect.data.to or nil
  local capturer = landed and ctx:checker(landed)
  if capturer and capturer.kind == "pawn" then
    -- Refused when its owner has no piece to crown with (R6.1): told, and spent.
    local crowned, why = pcall(ctx.crown, ctx, landed)
    if not crowned then ctx:log("First blood cannot crown: " .. why) end
  end
  ctx:end_effect()
end
